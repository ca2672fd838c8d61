package dev.panamaverbs.it.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.panamaverbs.Completions;
import dev.panamaverbs.Context;
import dev.panamaverbs.ReceiveWorkRequest;
import dev.panamaverbs.SendWorkRequest;
import dev.panamaverbs.testkit.CompletionWaiter;
import dev.panamaverbs.testkit.DeviceTest;
import dev.panamaverbs.testkit.RcLoopbackPair;
import dev.panamaverbs.testkit.TestDevice;
import dev.panamaverbs.values.CompletionStatus;
import dev.panamaverbs.values.WorkRequestOpcode;
import java.lang.foreign.Arena;

/**
 * rxe keeps the plain post downcalls: its {@code post_send} rings the doorbell with a system call,
 * so it is not in the table of providers whose posts run without the thread-state transition
 * (docs/critical-downcalls.md), and a send and a receive still complete through them.
 */
class CriticalPostsDeviceTest {
    /** rxe's {@code vendor_id} (RXE_VENDOR_ID): what keeps an rxe over a ConnectX parent out of the table. */
    private static final long RXE_VENDOR_ID = 0xffffff;

    @DeviceTest
    void rxeKeepsThePlainPostsAndTheyStillComplete(TestDevice device) {
        try (RcLoopbackPair pair = RcLoopbackPair.open(device); Arena arena = Arena.ofConfined()) {
            Context context = pair.context();
            long vendorId = context.maxAttributes().vendorId();
            if (device.name().startsWith("rxe")) {
                assertEquals(RXE_VENDOR_ID, vendorId, "rxe's vendor_id, which keeps it out of the table");
            }
            if (vendorId == RXE_VENDOR_ID) {
                assertFalse(context.criticalPosts(), "rxe posts through the plain downcalls");
            }
            pair.second().postReceive(ReceiveWorkRequest.allocate(arena, 1).wrId(7)
                    .sge(0, pair.secondBuffer().region(), 0, 256));
            pair.firstBuffer().fillPattern(5, 0, 64);
            pair.first().postSend(SendWorkRequest.allocate(arena, 1).wrId(8).signaled(true)
                    .opcode(WorkRequestOpcode.SEND).sge(pair.firstBuffer().region(), 0, 64));
            Completions wc = Completions.allocate(arena, 1);
            CompletionWaiter.await(pair.firstQueue(), wc, 1, CompletionWaiter.DEFAULT_TIMEOUT);
            assertEquals(CompletionStatus.SUCCESS, wc.status(0));
            assertEquals(8, wc.wrId(0));
            CompletionWaiter.await(pair.secondQueue(), wc, 1, CompletionWaiter.DEFAULT_TIMEOUT);
            assertEquals(CompletionStatus.SUCCESS, wc.status(0));
            assertEquals(7, wc.wrId(0));
            pair.secondBuffer().assertSameBytes(0, pair.firstBuffer(), 0, 64);
        }
    }
}
