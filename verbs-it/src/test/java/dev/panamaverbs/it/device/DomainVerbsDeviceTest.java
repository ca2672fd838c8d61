package dev.panamaverbs.it.device;

import dev.panamaverbs.it.support.KernelResources;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panamaverbs.values.AccessFlag;
import dev.panamaverbs.CompletionQueue;
import dev.panamaverbs.Context;
import dev.panamaverbs.ProtectionDomain;
import dev.panamaverbs.values.QueuePairType;
import dev.panamaverbs.QueuePair;
import dev.panamaverbs.QueuePairOptions;
import dev.panamaverbs.values.RateLimit;
import dev.panamaverbs.testkit.DeviceTest;
import dev.panamaverbs.testkit.TestDevice;
import java.util.EnumSet;
import java.util.Map;
import org.junit.jupiter.api.function.Executable;

/**
 * Issue 10 item 2, the verbs rxe has no op for: device memory ({@code ibv_alloc_dm}), null
 * regions ({@code ibv_alloc_null_mr}), thread domains ({@code ibv_alloc_td}), parent domains
 * ({@code ibv_alloc_parent_domain}) and packet pacing ({@code ibv_modify_qp_rate_limit}). Each is
 * checked for its arguments first, then reaches the provider, whose answer (libibverbs' stand-in
 * op for a provider without one) is EOPNOTSUPP; nothing is left behind in the kernel.
 */
class DomainVerbsDeviceTest {

    private static void assertRefused(String verb, Executable call) {
        Refusals.assertRefused("DomainVerbsDeviceTest", verb, call);
    }

    private static Map<String, Integer> kernelCounts(TestDevice device) {
        return KernelResources.countIfAvailable(device.name());
    }

    /** {@code ibv_alloc_dm}: rxe has no device memory (max_dm_size 0) and refuses it. */
    @DeviceTest
    void deviceMemoryIsRefusedByRxe(Context context, TestDevice device) {
        System.out.println("# DomainVerbsDeviceTest: " + device.name() + " max_dm_size "
                + context.maxAttributes().extended().map(e -> e.maxDeviceMemorySize()).orElse(-1L));
        assertThrows(IllegalArgumentException.class, () -> context.allocateDeviceMemory(0, 0));
        assertThrows(IllegalArgumentException.class, () -> context.allocateDeviceMemory(4096, 64));
        assertRefused("ibv_alloc_dm", () -> context.allocateDeviceMemory(4096, 6));
    }

    /**
     * {@code ibv_alloc_null_mr}, {@code ibv_alloc_td} and {@code ibv_alloc_parent_domain}
     * (with and without a thread domain: rxe refuses the thread domain first): refused, and the
     * kernel's PD count is what it was.
     */
    @DeviceTest
    void nullRegionsThreadDomainsAndParentDomainsAreRefusedByRxe(Context context, TestDevice device) {
        Map<String, Integer> before = kernelCounts(device);
        ProtectionDomain pd = context.allocateProtectionDomain();
        assertRefused("ibv_alloc_null_mr", pd::allocateNullMemoryRegion);
        assertRefused("ibv_alloc_td", context::allocateThreadDomain);
        assertRefused("ibv_alloc_parent_domain", () -> pd.allocateParentDomain(null));
        assertThrows(NullPointerException.class,
                () -> pd.registerDeviceMemory(null, 0, 1, EnumSet.of(AccessFlag.LOCAL_WRITE)), "no device memory");
        pd.close();
        if (!before.isEmpty()) {
            assertEquals(before.get("pd"), kernelCounts(device).get("pd"), "every PD freed");
            assertEquals(before.get("mr"), kernelCounts(device).get("mr"), "no MR left");
        }
    }

    /**
     * {@code ibv_modify_qp_rate_limit}: ranges checked by RateLimit; rxe has no packet pacing.
     * {@code ibv_is_qpt_supported} (PacketPacing.paces) reads the device's packet pacing QP types.
     */
    @DeviceTest
    void rateLimitsAreRefusedByRxe(Context context, TestDevice device) {
        assertThrows(IllegalArgumentException.class, () -> new RateLimit(1L << 32, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> new RateLimit(1000, -1, 0));
        assertThrows(IllegalArgumentException.class, () -> new RateLimit(1000, 0, 65536));
        context.maxAttributes().extended().ifPresent(attributes -> {
            var pacing = attributes.packetPacing();
            System.out.println("# DomainVerbsDeviceTest: " + device.name() + " " + pacing + ", paces RC: "
                    + pacing.paces(QueuePairType.RC));
            assertEquals((pacing.supportedQpTypes() & (1 << QueuePairType.RC.value())) != 0, pacing.paces(QueuePairType.RC));
        });
        Map<String, Integer> before = kernelCounts(device);
        try (ProtectionDomain pd = context.allocateProtectionDomain()) {
            CompletionQueue cq = context.createCompletionQueue(16);
            QueuePair qp = pd.createQueuePair(QueuePairOptions.builder(QueuePairType.RC, cq)
                    .maxSendWorkRequests(4).maxReceiveWorkRequests(4).build());
            assertRefused("ibv_modify_qp_rate_limit", () -> qp.limitRate(new RateLimit(100_000, 4096, 1024)));
            assertRefused("ibv_modify_qp_rate_limit", () -> qp.limitRate(RateLimit.ofKbps(0)));
            qp.close();
            cq.close();
        }
        if (!before.isEmpty()) {
            Map<String, Integer> after = kernelCounts(device);
            assertEquals(before.get("qp"), after.get("qp"), "QP freed");
            assertTrue(after.get("pd") <= before.get("pd"), "PD freed");
        }
    }
}
