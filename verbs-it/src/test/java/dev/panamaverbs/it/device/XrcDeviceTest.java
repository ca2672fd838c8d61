package dev.panamaverbs.it.device;

import dev.panamaverbs.it.support.KernelResources;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.panamaverbs.Context;
import dev.panamaverbs.ProtectionDomain;
import dev.panamaverbs.SharedReceiveQueue;
import dev.panamaverbs.values.SharedReceiveQueueOptions;
import dev.panamaverbs.testkit.DeviceTest;
import dev.panamaverbs.testkit.TestDevice;
import java.util.Map;
import org.junit.jupiter.api.function.Executable;

/**
 * XRC on rxe (issue 10 item 2): SoftRoCE has no XRC, so {@code ibv_open_xrcd} and
 * {@code ibv_get_srq_num} reach libibverbs' stand-in ops, which answer EOPNOTSUPP; the plain
 * shared receive queue asked for its number stays usable and is freed.
 */
class XrcDeviceTest {

    private static void assertRefused(String verb, Executable call) {
        Refusals.assertRefused("XrcDeviceTest", verb, call);
    }

    /** {@code ibv_open_xrcd}: arguments checked, then refused. */
    @DeviceTest
    void xrcDomainsAreRefusedByRxe(Context context) {
        assertThrows(IllegalArgumentException.class, () -> context.openXrcDomain(-2, true));
        assertRefused("ibv_open_xrcd", context::openXrcDomain);
        assertRefused("ibv_open_xrcd", () -> context.openXrcDomain(-1, true));
    }

    /** {@code ibv_get_srq_num} on a plain SRQ: refused; the SRQ closes and the kernel frees it. */
    @DeviceTest
    void srqNumbersAreRefusedByRxe(Context context, TestDevice device) {
        Map<String, Integer> before = KernelResources.countIfAvailable(device.name());
        try (ProtectionDomain pd = context.allocateProtectionDomain()) {
            SharedReceiveQueue srq = pd.createSharedReceiveQueue(SharedReceiveQueueOptions.of(8, 1));
            assertRefused("ibv_get_srq_num", srq::number);
            srq.close();
        }
        if (!before.isEmpty()) {
            assertEquals(before.get("srq"), KernelResources.count(device.name()).get("srq"), "SRQ freed");
        }
    }
}
