package dev.panamaverbs.examples.pingpong;

import dev.panamaverbs.Completions;
import java.lang.foreign.Arena;
import java.time.Duration;

/**
 * rc_pingpong's ping-pong and its completion accounting: the client sends first; each side
 * sends again once both its last SEND and a RECV have completed, until {@code iters} of each;
 * receives are topped up to {@code rx_depth} whenever one or fewer remain posted. Polls the
 * completion queue two at a time, as C does, and fails when no completion comes within the timeout.
 */
final class PingPongLoop {
    private static final int RECV = (int) PingPongContext.RECV_WRID;
    private static final int SEND = (int) PingPongContext.SEND_WRID;

    private final PingPongContext ctx;
    private final int iters;
    private final int rxDepth;
    private final long timeoutNanos;
    private int routs;
    private int rcnt;
    private int scnt;
    private int pending;

    PingPongLoop(PingPongContext ctx, int iters, int rxDepth, int postedReceives, Duration timeout) {
        this.ctx = ctx;
        this.iters = iters;
        this.rxDepth = rxDepth;
        this.routs = postedReceives;
        this.timeoutNanos = timeout.toNanos();
    }

    /** Runs the loop; returns the nanoseconds from after the client's first send to the last completion (C's timing). */
    long run(boolean client) {
        pending = RECV;
        if (client) {
            ctx.postSend();
            pending |= SEND;
        }
        long start = System.nanoTime();
        try (Arena arena = Arena.ofConfined()) {
            Completions wc = Completions.allocate(arena, 2);
            long lastProgress = System.nanoTime();
            int idle = 0;
            while (rcnt < iters || scnt < iters) {
                int n = ctx.completionQueue().poll(wc, 2);
                if (n == 0) {
                    if (++idle % 1024 == 0) {
                        if (System.nanoTime() - lastProgress > timeoutNanos) {
                            throw new IllegalStateException(String.format("no completion within %d s (%d sends and %d"
                                    + " receives of %d completed): is the peer alive?", timeoutNanos / 1_000_000_000L,
                                    scnt, rcnt, iters));
                        }
                        Thread.yield();
                    }
                    continue;
                }
                idle = 0;
                lastProgress = System.nanoTime();
                for (int i = 0; i < n; i++) {
                    handle(wc, i);
                }
            }
        }
        return System.nanoTime() - start;
    }

    /** rc_pingpong's {@code parse_single_wc}. */
    private void handle(Completions wc, int i) {
        long wrId = wc.wrId(i);
        if (!wc.isSuccess(i)) {
            throw new IllegalStateException(String.format("Failed status %s (%d) for wr_id %d",
                    wc.status(i), wc.statusValue(i), (int) wrId));
        }
        if (wrId == SEND) {
            scnt++;
        } else if (wrId == RECV) {
            if (--routs <= 1) {
                routs += ctx.postReceives(rxDepth - routs);
                if (routs < rxDepth) {
                    throw new IllegalStateException("Couldn't post receive (" + routs + ")");
                }
            }
            rcnt++;
        } else {
            throw new IllegalStateException("Completion for unknown wr_id " + (int) wrId);
        }
        pending &= ~(int) wrId;
        if (scnt < iters && pending == 0) {
            ctx.postSend();
            pending = RECV | SEND;
        }
    }
}
