package dev.panamaverbs.it.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.panamaverbs.CompletionChannel;
import dev.panamaverbs.CompletionQueue;
import dev.panamaverbs.Completions;
import dev.panamaverbs.Context;
import dev.panamaverbs.MemoryRegion;
import dev.panamaverbs.ProtectionDomain;
import dev.panamaverbs.QueuePair;
import dev.panamaverbs.SendWorkRequest;
import dev.panamaverbs.it.support.DeviceScope;
import dev.panamaverbs.testkit.DeviceTest;
import dev.panamaverbs.testkit.TestDevice;
import dev.panamaverbs.values.AccessFlag;
import dev.panamaverbs.values.WorkRequestOpcode;
import java.lang.foreign.Arena;
import java.lang.management.ManagementFactory;
import java.util.EnumSet;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Issues 23/24: the poller thread's path for a readable completion channel
 * ({@code CompletionChannel.setEventHandler}: {@code ibv_get_cq_event}, the acknowledgement count,
 * {@code ibv_req_notify_cq}, the handler) allocates nothing per event once warm. One signaled RDMA
 * WRITE at a time on a loopback queue pair, each raising one event; the handler (polling the CQ
 * empty) reads the poller thread's allocated bytes at the edges of {@link #WINDOWS} windows of
 * events, and the quietest window must stay below one byte per event: the allowance of the default
 * JIT (see {@code DataPathAllocationDeviceTest}, a compile request's one-off class loading), while
 * an object per event, 16 bytes at least, fails every window. The poller thread is shared, so
 * work it does for another source in the meantime lands in one window, not in all: one run after
 * {@code RendezvousDeviceTest} measured 202 kB over the 5,000 events (0 B with the class alone;
 * the cause was not traced).
 */
class EventHandlerAllocationDeviceTest {
    /** Past C2's compile thresholds, as the data path allocation test's default JIT mode. */
    private static final int WARM_UP = 20_000;
    private static final int EVENTS = 5_000;
    private static final int WINDOWS = 5;
    private static final int WINDOW_EVENTS = EVENTS / WINDOWS;
    private static final long WAIT_NANOS = 60_000_000_000L;
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    @DeviceTest
    void theEventPathOnThePollerThreadAllocatesNothingOnceWarm(TestDevice device) throws Exception {
        assertTrue(THREADS.isThreadAllocatedMemorySupported(), "this JVM cannot count allocated bytes");
        THREADS.setThreadAllocatedMemoryEnabled(true);
        try (Context context = DeviceScope.openContext(device); Arena arena = Arena.ofShared()) {
            ProtectionDomain pd = context.allocateProtectionDomain();
            MemoryRegion mr = pd.register(arena.allocate(64 * 1024, 4096),
                    EnumSet.of(AccessFlag.LOCAL_WRITE, AccessFlag.REMOTE_WRITE));
            CompletionChannel channel = context.createCompletionChannel();
            CompletionQueue cq = context.createCompletionQueue(16, channel, 0);
            // Every event acknowledged (ibv_ack_cq_events), so the warm-up makes that call as hot as the rest of the path.
            cq.setEventAckBatch(1);
            cq.requestNotification(false);
            QueuePair qp = PollerDeviceTest.loopback(context, device, pd, cq);
            AtomicLong completed = new AtomicLong();
            long[] bytesAt = new long[WINDOWS + 1]; // written by the poller thread, published by the counts
            AtomicReference<String> failure = new AtomicReference<>();
            Completions batch = Completions.allocate(8); // only the poller thread uses it
            channel.setEventHandler(queue -> {
                for (int polled = queue.poll(batch); polled > 0; polled = queue.poll(batch)) {
                    for (int k = 0; k < polled; k++) {
                        count(batch.statusValue(k), completed, bytesAt, failure);
                    }
                }
            });
            SendWorkRequest wr = SendWorkRequest.allocate(arena, 1);
            for (int m = 0; m < WARM_UP + EVENTS; m++) {
                qp.postSend(wr.wrId(m).opcode(WorkRequestOpcode.RDMA_WRITE)
                        .sge(mr, 0, 64).rdma(mr.memoryAddress() + 32 * 1024, mr.rkey()).signaled(true));
                long end = System.nanoTime() + WAIT_NANOS;
                while (completed.get() <= m) {
                    if (System.nanoTime() - end > 0) {
                        fail("no event for write " + m + " within " + WAIT_NANOS / 1_000_000_000L + " s: " + failure.get());
                    }
                    Thread.onSpinWait();
                }
            }
            channel.setEventHandler(null);
            assertEquals(null, failure.get());
            long[] windows = new long[WINDOWS];
            for (int w = 0; w < WINDOWS; w++) {
                windows[w] = bytesAt[w + 1] - bytesAt[w];
            }
            long quietest = java.util.Arrays.stream(windows).min().orElseThrow();
            System.out.println("poller thread: " + java.util.Arrays.toString(windows) + " B in windows of " + WINDOW_EVENTS
                    + " events after " + WARM_UP + " warm-up");
            assertTrue(quietest < WINDOW_EVENTS, "the poller thread allocated " + java.util.Arrays.toString(windows)
                    + " B in windows of " + WINDOW_EVENTS + " events (one byte per event or more in every window)");
        }
    }

    /**
     * On the poller thread, for each completion: the count, and this thread's allocated bytes
     * read at the first measured event and after each window ({@code bytesAt}).
     */
    private static void count(int status, AtomicLong completed, long[] bytesAt, AtomicReference<String> failure) {
        if (status != 0) {
            failure.compareAndSet(null, "completion failed with status " + status);
        }
        long n = completed.get() + 1;
        long measured = n - WARM_UP;
        if (measured >= 0 && measured <= EVENTS && measured % WINDOW_EVENTS == 0) {
            bytesAt[(int) (measured / WINDOW_EVENTS)] = THREADS.getCurrentThreadAllocatedBytes();
        }
        completed.set(n); // publishes bytesAt to the test thread
    }
}
