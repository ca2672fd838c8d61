package dev.panamaverbs.perftest.run;

import dev.panamaverbs.AddressHandle;
import dev.panamaverbs.Completions;
import dev.panamaverbs.MemoryRegion;
import dev.panamaverbs.QueuePair;
import dev.panamaverbs.ReceiveWorkRequest;
import dev.panamaverbs.values.CompletionOpcode;
import dev.panamaverbs.values.WorkRequestOpcode;
import java.lang.foreign.Arena;

/**
 * Both halves of {@code send_bw -b} at once ({@code run_iter_bi}), on RC, UC or UD (on UD each
 * queue pair's SENDs go to the peer's queue pair of the same index through the one address
 * handle; perftest's receive credits are iWARP's only, so none here): each queue pair sends
 * {@code -n} SENDs with up to {@code -t} outstanding, one in {@code -Q} signaled (and the last),
 * one request or a post list ({@code -l}) a post ({@link PostUnits}), while its receives
 * ({@code -r} posted before the run's hand shake) take the peer's {@code -n} and go back in only
 * while the run still needs them, as perftest's {@code rcnt + rx_depth <= iters} (in duration
 * mode always). As perftest's, a server sends nothing before its first arrival, so the client
 * starts. Sends and receives share one completion queue: a receive's {@code wr_id} is its queue
 * pair's index, a send's has bit 62 set, the queue pair's index above bit 40 and the request's
 * number below. The figures are the sends': when each was posted and completed. Allocates
 * nothing per iteration.
 */
public final class BidirectionalSending {
    private static final long SEND_TAG = 1L << 62;
    private static final int QP_SHIFT = 40;

    private final QueuePair[] qps;
    private final PostUnits units;
    private final ReceiveWorkRequest[] receives;
    private final CompletionWaiter completions;
    private final SendWindows sends;
    private final int receiveDepth;
    private final boolean server;
    private final long[] rcnt;
    private long first;
    private long last;

    /**
     * @param receiveOffset where receives land in {@code buffer}, {@code receiveLength} their room
     * @param receiveDepth  the receives each queue pair keeps posted ({@code -r} as cut)
     * @param postList      requests per post ({@code -l}); above 1, a multiple of {@code cqModeration}
     * @param ah            the peer's address handle on UD ({@code null} on RC and UC), with the peer's
     *                      queue pair numbers {@code remoteQpns} (one per queue pair) and {@code qkey}
     */
    public BidirectionalSending(QueuePair[] qps, MemoryRegion buffer, int size, int maxInline, long receiveOffset,
                                int receiveLength, int receiveDepth, int txDepth, int postList, int cqModeration,
                                boolean server, AddressHandle ah, int[] remoteQpns, int qkey, CompletionWaiter completions,
                                Arena arena) {
        this.qps = qps.clone();
        this.completions = completions;
        this.receiveDepth = receiveDepth;
        this.server = server;
        int n = qps.length;
        this.sends = new SendWindows(n, SEND_TAG, QP_SHIFT, txDepth, cqModeration);
        this.units = new PostUnits(qps, sends, buffer, WorkRequestOpcode.SEND, size, maxInline, new long[n], new int[n], ah,
                remoteQpns, qkey, postList, cqModeration, arena);
        this.receives = new ReceiveWorkRequest[n];
        this.rcnt = new long[n];
        for (int q = 0; q < n; q++) {
            receives[q] = ReceiveWorkRequest.allocate(arena, 1).wrId(q).sge(0, buffer, receiveOffset, receiveLength);
        }
    }

    /** Posts each queue pair's first receives, {@code iterations} at most (before the run's hand shake). */
    public void postReceives(int iterations) {
        for (int q = 0; q < qps.length; q++) {
            for (int i = 0; i < Math.min(receiveDepth, iterations); i++) {
                qps[q].postReceive(receives[q]);
            }
        }
    }

    /**
     * Sends and receives {@code iterations} on each queue pair: {@code posted[i]} and
     * {@code completed[i]} get when the run's i-th SEND was posted and completed (ns).
     */
    public void run(int iterations, long[] posted, long[] completed) {
        sends.reset();
        java.util.Arrays.fill(rcnt, 0);
        long total = (long) iterations * qps.length;
        int totalPosted = 0;
        int totalCompleted = 0;
        long totalReceived = 0;
        boolean beforeFirstArrival = server;
        while (totalCompleted < total || totalReceived < total) {
            for (int q = 0; !beforeFirstArrival && q < qps.length; q++) {
                while (sends.hasRoom(q, units.size(), iterations)) {
                    long now = System.nanoTime();
                    int sent = units.postNext(q, sends.posted(q), sends.signalsNext(q, iterations));
                    for (int k = 0; k < sent; k++) {
                        posted[totalPosted++] = now;
                    }
                    sends.countPosted(q, sent);
                }
            }
            int n = completions.poll(totalReceived < total ? "the peer's SEND" : "the completion of SEND",
                    totalReceived < total ? totalReceived + 1 : totalCompleted + 1);
            long now = System.nanoTime();
            Completions batch = completions.batch();
            for (int i = 0; i < n; i++) {
                long wrId = batch.wrId(i);
                if (batch.opcodeValue(i) >= CompletionOpcode.RECV.value()) {
                    totalReceived++;
                    beforeFirstArrival = false;
                    received((int) wrId, iterations);
                } else {
                    totalCompleted = sends.complete(wrId, now, completed, totalCompleted);
                }
            }
        }
    }

    /**
     * Duration mode ({@code -D}): sends and receives for {@code durationNanos}, from the start
     * on a client and from the first arrival on a server (which sends nothing before it, as
     * perftest's); receives always go back in. Returns what perftest counts as the run's
     * iterations: this side's SENDs completed plus the peer's received ({@code run_iter_bi}
     * counts both in its sampling state); {@link #elapsedNanos} is the time they took. Stops at
     * the end without waiting for what is still in flight, as perftest's loop does.
     */
    public long runUntil(long durationNanos) {
        sends.reset();
        long count = 0;
        first = System.nanoTime();
        long end = server ? Long.MAX_VALUE : first + durationNanos;
        boolean beforeFirstArrival = server;
        while (System.nanoTime() - end < 0) {
            for (int q = 0; !beforeFirstArrival && q < qps.length; q++) {
                while (sends.hasRoom(q, units.size(), Long.MAX_VALUE)) {
                    int sent = units.postNext(q, sends.posted(q), sends.signalsNextOfBurst(q));
                    sends.countPosted(q, sent);
                }
            }
            int n = beforeFirstArrival ? completions.poll("the peer's first SEND", 1) : completions.pollUntil(end);
            Completions batch = completions.batch();
            for (int i = 0; i < n; i++) {
                long wrId = batch.wrId(i);
                if (batch.opcodeValue(i) >= CompletionOpcode.RECV.value()) {
                    if (beforeFirstArrival) {
                        beforeFirstArrival = false;
                        first = System.nanoTime();
                        end = first + durationNanos;
                    }
                    count++;
                    qps[(int) wrId].postReceive(receives[(int) wrId]);
                } else {
                    count += sends.complete(wrId);
                }
            }
        }
        last = System.nanoTime();
        return count;
    }

    /** The time {@link #runUntil} sampled: from its start (a server's first arrival) to its end. */
    public long elapsedNanos() {
        return last - first;
    }

    /** Counts an arrival on queue pair {@code q} and posts its receive again while the run still needs it. */
    private void received(int q, int iterations) {
        rcnt[q]++;
        if (rcnt[q] + receiveDepth <= iterations) {
            qps[q].postReceive(receives[q]);
        }
    }
}
