package dev.panamaverbs.benchmarks.messaging;

import dev.panamaverbs.CompletionQueue;
import dev.panamaverbs.Completions;
import dev.panamaverbs.MemoryRegion;
import dev.panamaverbs.QueuePair;
import dev.panamaverbs.ReceiveWorkRequest;
import dev.panamaverbs.SendWorkRequest;
import java.lang.foreign.MemorySegment;

/**
 * A {@link Link} as the plain verbs loop: one side of an RC loop-back pair, its registered buffer
 * cut into {@code sendSlots} send slots and then {@code receiveSlots} receive slots of the
 * message size, every receive posted up front and re-posted once its message was checked. A send
 * is one signaled SEND from the next send slot, waiting (busy-polling the side's completion
 * queue) while all send slots are in flight; no credits, so a sender that outruns the receiver's
 * posted receives meets an RNR NAK and retries (the queue pairs retry for ever), which the run's
 * port counters show. Spins on {@code ibv_poll_cq}, as a plain loop does.
 */
final class VerbsLink implements Link {
    private static final long RECEIVE_TAG = 1L << 32;
    /** No completion for this long fails the run instead of hanging it. */
    private static final long STALL_NANOS = 120_000_000_000L;

    private final QueuePair qp;
    private final CompletionQueue cq;
    private final int size;
    private final int sendSlots;
    private final MemorySegment[] sendViews;
    private final MemorySegment[] receiveViews;
    private final SendWorkRequest[] sends;
    private final ReceiveWorkRequest[] receives;
    private final Completions completions = Completions.allocate(32);
    /** Received slots not yet taken by {@link #receive}, and their byte counts: a ring. */
    private final int[] arrivedSlots;
    private final int[] arrivedBytes;
    private int arrivedHead;
    private int arrivedCount;
    private int inFlight;
    private long sent;
    private long lastProgress = System.nanoTime();
    private volatile boolean aborted;

    VerbsLink(QueuePair qp, CompletionQueue cq, MemoryRegion buffer, int size, int sendSlots, int receiveSlots) {
        this.qp = qp;
        this.cq = cq;
        this.size = size;
        this.sendSlots = sendSlots;
        this.sendViews = new MemorySegment[sendSlots];
        this.sends = new SendWorkRequest[sendSlots];
        for (int slot = 0; slot < sendSlots; slot++) {
            long offset = (long) slot * size;
            sendViews[slot] = buffer.memory().asSlice(offset, size);
            sends[slot] = SendWorkRequest.allocate(1).wrId(slot).signaled(true).sge(buffer, offset, size);
        }
        this.receiveViews = new MemorySegment[receiveSlots];
        this.receives = new ReceiveWorkRequest[receiveSlots];
        this.arrivedSlots = new int[receiveSlots];
        this.arrivedBytes = new int[receiveSlots];
        for (int slot = 0; slot < receiveSlots; slot++) {
            long offset = (long) (sendSlots + slot) * size;
            receiveViews[slot] = buffer.memory().asSlice(offset, size);
            receives[slot] = ReceiveWorkRequest.allocate(1).wrId(RECEIVE_TAG | slot).sge(0, buffer, offset, size);
            qp.postReceive(receives[slot]);
        }
    }

    /** {@return the registered bytes one side needs} */
    static long bufferSize(int size, int sendSlots, int receiveSlots) {
        return (long) size * (sendSlots + receiveSlots);
    }

    @Override
    public void send(long word) {
        while (inFlight == sendSlots) {
            poll();
        }
        // RC send completions come in order: with fewer than sendSlots in flight, the oldest slot is free.
        int slot = (int) (sent++ % sendSlots);
        Stamp.write(sendViews[slot], size, word);
        qp.postSend(sends[slot]);
        inFlight++;
    }

    @Override
    public long receive() {
        while (arrivedCount == 0) {
            poll();
        }
        int slot = arrivedSlots[arrivedHead];
        int bytes = arrivedBytes[arrivedHead];
        arrivedHead = (arrivedHead + 1) % arrivedSlots.length;
        arrivedCount--;
        long word = Stamp.check(receiveViews[slot], bytes, size);
        qp.postReceive(receives[slot]);
        return word;
    }

    @Override
    public void flush() {
        while (inFlight > 0) {
            poll();
        }
    }

    @Override
    public void abort() {
        aborted = true;
    }

    /** One {@code ibv_poll_cq}: send completions free their slots, receive completions queue theirs. */
    private void poll() {
        int n = cq.poll(completions);
        if (n == 0) {
            stalled();
            return;
        }
        lastProgress = System.nanoTime();
        for (int i = 0; i < n; i++) {
            completions.throwIfFailed(i);
            long wrId = completions.wrId(i);
            if ((wrId & RECEIVE_TAG) == 0) {
                inFlight--;
            } else {
                arrivedSlots[(arrivedHead + arrivedCount) % arrivedSlots.length] = (int) (wrId & 0xffff_ffffL);
                arrivedBytes[(arrivedHead + arrivedCount) % arrivedSlots.length] = completions.byteLength(i);
                arrivedCount++;
            }
        }
    }

    private void stalled() {
        if (aborted) {
            throw new IllegalStateException("aborted: the peer's thread failed");
        }
        if (System.nanoTime() - lastProgress > STALL_NANOS) {
            throw new IllegalStateException("no completion on " + cq + " for " + STALL_NANOS / 1_000_000_000L + " s");
        }
        Thread.onSpinWait();
    }
}
