package dev.panamaverbs.messaging;

import dev.panamaverbs.MemoryRegion;
import dev.panamaverbs.ProtectionDomain;
import dev.panamaverbs.values.AccessFlag;
import java.util.EnumSet;

/**
 * Where a {@link MessageChannel} puts the large messages it receives by rendezvous: a registered
 * buffer the channel reads the message into with RDMA READ (the buffer needs {@code LOCAL_WRITE}),
 * owned by the channel until the application releases the {@link ReceivedMessage}, then given back
 * with {@link #release}. The channel also takes a staging buffer from it when a large message to
 * send is on the Java heap (heap memory cannot be registered). Both calls run on the channel's
 * completion thread (the shared poller's) or a sender's thread: they must not block for long.
 */
public interface RendezvousAllocator {
    /**
     * A registered buffer of at least {@code length} bytes in {@code pd}.
     *
     * @param pd the channel's protection domain
     * @param length the message's bytes
     * @return the region (its {@link MemoryRegion#memory()} from offset 0 receives the message)
     * @throws RuntimeException when no buffer can be had (the offer is refused with
     *         {@link RendezvousStatus#NO_BUFFER}; the channel goes on)
     */
    MemoryRegion allocate(ProtectionDomain pd, long length);

    /**
     * Takes back a buffer from {@link #allocate} once no work request uses it and the
     * application released its message.
     *
     * @param region the buffer
     */
    void release(MemoryRegion region);

    /**
     * The default: a fresh registered allocation per message ({@code ibv_reg_mr} of native memory,
     * {@code LOCAL_WRITE}), deregistered and freed on release.
     *
     * @return the default allocator
     */
    static RendezvousAllocator registering() {
        return Registering.INSTANCE;
    }

    /** {@link #registering()}. */
    final class Registering implements RendezvousAllocator {
        private static final Registering INSTANCE = new Registering();

        private Registering() {}

        @Override
        public MemoryRegion allocate(ProtectionDomain pd, long length) {
            return pd.allocateMemoryRegion(length, EnumSet.of(AccessFlag.LOCAL_WRITE));
        }

        @Override
        public void release(MemoryRegion region) {
            region.close();
        }
    }
}
