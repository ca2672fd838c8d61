package dev.panamaverbs.messaging.registration;

import dev.panamaverbs.MemoryRegion;
import dev.panamaverbs.ProtectionDomain;
import dev.panamaverbs.values.AccessFlag;
import java.lang.foreign.MemorySegment;
import java.util.Set;

/**
 * The one step of {@link RegistrationCache} that touches the device: registering a range and,
 * later, deregistering it. A seam so that the cache's bookkeeping (LRU, budget, leases,
 * statistics) is tested without a device.
 */
interface RegistrationStep {
    /**
     * Registers {@code memory}.
     *
     * @param memory the range to register
     * @return the registration
     * @throws dev.panamaverbs.VerbsException when the verb fails
     */
    Registered register(MemorySegment memory);

    /** One registration made by a step. */
    interface Registered {
        /**
         * The region, or {@code null} for a test's fake.
         *
         * @return the region
         */
        MemoryRegion region();

        /** Deregisters ({@code ibv_dereg_mr}). */
        void deregister();
    }

    /**
     * {@code ibv_reg_mr} through {@link ProtectionDomain#register(MemorySegment, Set)}.
     *
     * @param pd the protection domain
     * @param access the access flags of every registration
     * @return the step
     */
    static RegistrationStep of(ProtectionDomain pd, Set<AccessFlag> access) {
        return memory -> {
            MemoryRegion region = pd.register(memory, access);
            return new Registered() {
                @Override
                public MemoryRegion region() {
                    return region;
                }

                @Override
                public void deregister() {
                    region.close();
                }
            };
        };
    }
}
