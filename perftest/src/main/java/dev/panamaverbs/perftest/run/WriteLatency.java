package dev.panamaverbs.perftest.run;

import dev.panamaverbs.MemoryRegion;
import dev.panamaverbs.QueuePair;
import dev.panamaverbs.SendWorkRequest;
import dev.panamaverbs.values.WorkRequestOpcode;
import java.lang.foreign.Arena;
import java.lang.foreign.ValueLayout;
import java.time.Duration;

/**
 * ib_write_lat's ping-pong ({@code run_iter_lat_write}): each side RDMA WRITEs {@code size} bytes
 * into the peer's target, the last byte carrying the iteration number (mod 256), and waits for
 * the peer's write of that number to land in its own target's last byte before writing the next.
 * The server writes first. Both sides time each post; {@code 2} round trips per gap make the
 * reported latency half a gap. Allocates nothing per iteration.
 */
public final class WriteLatency {
    private final QueuePair qp;
    private final MemoryRegion buffer;
    private final SendWorkRequest write;
    private final CompletionWaiter completions;
    private final ByteWatch arrival;
    private final int size;
    private final boolean server;

    /**
     * @param targetOffset where the peer's writes land in {@code buffer}
     * @param remoteAddress the peer's target, {@code remoteRkey} its rkey
     */
    public WriteLatency(QueuePair qp, MemoryRegion buffer, long targetOffset, long remoteAddress, int remoteRkey, int size,
                        int maxInline, CompletionWaiter completions, Arena arena, boolean server, Duration timeout) {
        this.qp = qp;
        this.buffer = buffer;
        this.size = size;
        this.server = server;
        this.completions = completions;
        this.write = SendWorkRequest.allocate(arena, 1).wrId(0).opcode(WorkRequestOpcode.RDMA_WRITE).signaled(true)
                .inline(size <= maxInline).sge(0, buffer, 0, size).rdma(remoteAddress, remoteRkey);
        this.arrival = new ByteWatch(buffer.memory(), targetOffset + size - 1, timeout);
    }

    /** Runs {@code iterations}; {@code posted[i]} gets when iteration i was posted (ns). */
    public void run(int iterations, long[] posted) {
        long scnt = 0;
        long ccnt = 0;
        long rcnt = 0;
        while (scnt < iterations || ccnt < iterations || rcnt < iterations) {
            if (rcnt < iterations && !(scnt < 1 && server)) {
                rcnt++;
                arrival.await((byte) rcnt, rcnt);
            }
            if (scnt < iterations) {
                posted[(int) scnt] = System.nanoTime();
                scnt++;
                buffer.memory().set(ValueLayout.JAVA_BYTE, size - 1, (byte) scnt);
                qp.postSend(write);
            }
            if (ccnt < iterations) {
                ccnt += completions.poll("the completion of WRITE", ccnt + 1);
            }
        }
    }

    /**
     * Duration mode ({@code -D}): ping-pongs until {@code endNanos}; a side whose peer stopped first
     * stops waiting at its own end. Returns the iterations this side sent.
     */
    public long runUntil(long endNanos) {
        long scnt = 0;
        while (System.nanoTime() - endNanos < 0) {
            long expected = server ? scnt : scnt + 1;    // the server writes first
            if (expected > 0 && !arrival.awaitUntil((byte) expected, endNanos)) {
                break;
            }
            scnt++;
            buffer.memory().set(ValueLayout.JAVA_BYTE, size - 1, (byte) scnt);
            qp.postSend(write);
            completions.poll("the completion of WRITE", scnt);
        }
        return scnt;
    }
}
