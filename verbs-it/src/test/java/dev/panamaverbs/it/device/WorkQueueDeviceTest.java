package dev.panamaverbs.it.device;

import dev.panamaverbs.it.support.KernelResources;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.panamaverbs.CompletionQueue;
import dev.panamaverbs.Context;
import dev.panamaverbs.values.Errno;
import dev.panamaverbs.ProtectionDomain;
import dev.panamaverbs.VerbsUnsupportedException;
import dev.panamaverbs.WorkQueueOptions;
import dev.panamaverbs.testkit.DeviceTest;
import dev.panamaverbs.testkit.TestDevice;
import java.util.List;
import java.util.Map;

/**
 * Receive work queues and RSS indirection tables on rxe (issue 10 item 2): SoftRoCE has no work
 * queues, so {@code ibv_create_wq} reaches libibverbs' stand-in op, which answers EOPNOTSUPP; an
 * indirection table is checked for its size before any call; nothing is left in the kernel.
 */
class WorkQueueDeviceTest {

    @DeviceTest
    void workQueuesAreRefusedByRxe(Context context, TestDevice device) {
        assertThrows(IllegalArgumentException.class, () -> context.createIndirectionTable(List.of()));
        Map<String, Integer> before = KernelResources.countIfAvailable(device.name());
        try (ProtectionDomain pd = context.allocateProtectionDomain()) {
            CompletionQueue cq = context.createCompletionQueue(16);
            assertThrows(IllegalArgumentException.class, () -> new WorkQueueOptions(cq, 0, 1));
            VerbsUnsupportedException e = assertThrows(VerbsUnsupportedException.class,
                    () -> pd.createWorkQueue(new WorkQueueOptions(cq, 64, 1)));
            assertEquals("ibv_create_wq", e.verb(), e.getMessage());
            assertEquals(Errno.EOPNOTSUPP, e.errno(), e.getMessage());
            System.out.println("# WorkQueueDeviceTest: " + e.getMessage());
            cq.close();
        }
        if (!before.isEmpty()) {
            Map<String, Integer> after = KernelResources.count(device.name());
            assertEquals(before.get("cq"), after.get("cq"), "CQ freed");
            assertEquals(before.get("pd"), after.get("pd"), "PD freed");
        }
    }
}
