package dev.panamaverbs.perftest.run;

import dev.panamaverbs.AddressHandle;
import dev.panamaverbs.Completions;
import dev.panamaverbs.values.CompletionOpcode;
import dev.panamaverbs.MemoryRegion;
import dev.panamaverbs.QueuePair;
import dev.panamaverbs.ReceiveWorkRequest;
import dev.panamaverbs.SendWorkRequest;
import dev.panamaverbs.values.WorkRequestOpcode;
import java.lang.foreign.Arena;

/**
 * ib_send_lat's ping-pong ({@code run_iter_lat_send}): each side SENDs {@code size} bytes and
 * waits for the peer's SEND before its next; the client sends first, the server first waits.
 * Receives are posted before the test's last hand shake ({@link #postReceives}); as in perftest,
 * one is posted again for each that completes only while the run still needs it (in duration
 * mode always), so a run of {@code -n} iterations ends with none left posted and the next size of
 * {@code -a} finds the receive queue empty. On UD each receive has room for the 40-byte GRH.
 * Allocates nothing per iteration.
 */
public final class SendLatency {
    private final QueuePair qp;
    private final SendWorkRequest send;
    private final ReceiveWorkRequest receive;
    private final CompletionWaiter completions;
    private final boolean server;

    /**
     * @param receiveOffset where receives land in {@code buffer}; {@code receiveLength} their room
     * @param ah the peer's address handle on UD ({@code null} on RC/UC), with {@code remoteQpn}
     */
    public SendLatency(QueuePair qp, MemoryRegion buffer, long receiveOffset, int receiveLength, int size, int maxInline,
                       AddressHandle ah, int remoteQpn, int qkey, CompletionWaiter completions, Arena arena, boolean server) {
        this.qp = qp;
        this.server = server;
        this.completions = completions;
        this.send = SendWorkRequest.allocate(arena, 1).wrId(1).opcode(WorkRequestOpcode.SEND).signaled(true)
                .inline(size <= maxInline).sge(0, buffer, 0, size);
        if (ah != null) {
            send.ud(ah, remoteQpn, qkey);
        }
        this.receive = ReceiveWorkRequest.allocate(arena, 1).wrId(2).sge(0, buffer, receiveOffset, receiveLength);
    }

    /** Posts {@code count} receives (the receive depth, at most the queue's room). */
    public void postReceives(int count) {
        for (int i = 0; i < count; i++) {
            qp.postReceive(receive);
        }
        receivesPosted = count;
    }

    /**
     * perftest's rule ({@code rcnt + rx_depth <= iters}): after {@code received} arrivals, whether
     * a receive goes back in for a run of {@code limit} messages, {@code depth} of them posted up
     * front; every receive posted is then consumed by the run's end.
     */
    static boolean repostAfter(long received, int depth, long limit) {
        return received + depth <= limit;
    }

    /** Runs {@code iterations}; {@code posted[i]} gets when send i was posted (ns). */
    public void run(int iterations, long[] posted) {
        scnt = 0;
        rcnt = 0;
        ccnt = 0;
        receiveLimit = iterations;
        while (scnt < iterations) {
            long needed = Math.min(iterations, server ? scnt + 1 : scnt);   // the peer's sends before our next
            // Also our own last SEND's completion, as ib_send_lat polls it after each post: the
            // send queue is as deep as -t (1 by default), and the peer's answer can arrive before
            // the ACK that frees our send slot (ENOMEM on the next post otherwise).
            while (rcnt < needed || ccnt < scnt) {
                account(rcnt < needed ? completions.poll("the peer's SEND", rcnt + 1)
                        : completions.poll("the completion of SEND", ccnt + 1));
            }
            posted[(int) scnt] = System.nanoTime();
            qp.postSend(send);
            scnt++;
        }
        while (ccnt < iterations || rcnt < iterations) {
            account(ccnt < iterations ? completions.poll("the completion of SEND", ccnt + 1) : completions.poll("the peer's SEND", rcnt + 1));
        }
    }

    /**
     * Duration mode ({@code -D}): ping-pongs until {@code endNanos}; stops waiting for the peer at
     * its own end. Returns the SENDs this side posted.
     */
    public long runUntil(long endNanos) {
        scnt = 0;
        rcnt = 0;
        ccnt = 0;
        receiveLimit = Long.MAX_VALUE;
        while (System.nanoTime() - endNanos < 0) {
            long needed = server ? scnt + 1 : scnt;
            while (rcnt < needed || ccnt < scnt) {
                int n = completions.pollUntil(endNanos);
                if (n == 0) {
                    return scnt;
                }
                account(n);
            }
            qp.postSend(send);
            scnt++;
        }
        return scnt;
    }

    private long scnt;
    private long rcnt;
    private long ccnt;
    /** The receives {@link #postReceives} posted up front. */
    private int receivesPosted;
    /** The messages the run receives (for the repost rule); unbounded in duration mode. */
    private long receiveLimit;

    /** Counts the batch's sends and receives; posts a receive again for each one consumed while the run needs it. */
    private void account(int n) {
        Completions batch = completions.batch();
        for (int i = 0; i < n; i++) {
            if (batch.opcodeValue(i) >= CompletionOpcode.RECV.value()) {
                rcnt++;
                if (repostAfter(rcnt, receivesPosted, receiveLimit)) {
                    qp.postReceive(receive);
                }
            } else {
                ccnt++;
            }
        }
    }
}
