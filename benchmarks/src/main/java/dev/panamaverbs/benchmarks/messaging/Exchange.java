package dev.panamaverbs.benchmarks.messaging;

import dev.panamaverbs.benchmarks.ThreadAllocation;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The two patterns {@link MessagingCompare} runs over any {@link Link} pair, each end on a platform
 * thread of its own: round trips (the client sends, the server checks and echoes, the client waits
 * for the echo and checks it) and one-way streaming (the sender sends as fast as flow control lets
 * it, the receiver checks each message). Each phase lasts about {@code durationNanos}: the message
 * posted after it carries {@link Stamp#LAST}, so both threads end on the same message. Every message's
 * sequence number is checked. Each thread counts the bytes it allocates inside its loop.
 */
final class Exchange {
    /** The longest a phase may overrun its duration before it is called hung. */
    private static final Duration GRACE = Duration.ofMinutes(5);

    private Exchange() {}

    /**
     * What one phase measured.
     *
     * @param messages      messages sent one way (round trips: echoes not counted)
     * @param nanos         from the first send to the last message's arrival
     * @param latencies     round trip times in nanoseconds, the first {@code latencyCount} valid (round trips only)
     * @param latencyCount  how many latencies were kept (at most {@code latencies.length})
     * @param allocatedA    bytes the client's or sender's thread allocated in its loop
     * @param allocatedB    bytes the server's or receiver's thread allocated in its loop
     */
    record Measured(long messages, long nanos, long[] latencies, int latencyCount, long allocatedA, long allocatedB) {}

    /** Round trips between {@code client} and {@code server} for about {@code durationNanos}. */
    static Measured roundTrips(Link client, Link server, long durationNanos, long[] latencies) throws Exception {
        long[] a = new long[4]; // messages, nanos, allocated, latencies kept
        long[] b = new long[2]; // arrival of the last, allocated
        run("round-trip", client, server, durationNanos, () -> {
            long allocated = ThreadAllocation.current();
            long start = System.nanoTime();
            long end = start + durationNanos;
            long sequence = 0;
            int kept = 0;
            while (true) {
                long t0 = System.nanoTime();
                boolean last = t0 - end >= 0;
                long word = Stamp.word(sequence, last);
                client.send(word);
                long echo = client.receive();
                long t1 = System.nanoTime();
                if (echo != word) {
                    throw new IllegalStateException("echo " + echo + " came back for " + word);
                }
                if (kept < latencies.length) {
                    latencies[kept++] = t1 - t0;
                }
                sequence++;
                if (last) {
                    a[1] = t1 - start;
                    break;
                }
            }
            client.flush();
            a[2] = ThreadAllocation.current() - allocated;
            a[0] = sequence;
            a[3] = kept;
        }, () -> receiveAll(server, true, b));
        return new Measured(a[0], a[1], latencies, (int) a[3], a[2], b[1]);
    }

    /** One-way messages from {@code sender} to {@code receiver} for about {@code durationNanos}. */
    static Measured oneWay(Link sender, Link receiver, long durationNanos) throws Exception {
        long[] a = new long[3]; // messages, start, allocated
        long[] b = new long[2]; // arrival of the last, allocated
        run("one-way", sender, receiver, durationNanos, () -> {
            long allocated = ThreadAllocation.current();
            long start = System.nanoTime();
            a[1] = start;
            long end = start + durationNanos;
            long sequence = 0;
            while (true) {
                boolean last = System.nanoTime() - end >= 0;
                sender.send(Stamp.word(sequence++, last));
                if (last) {
                    break;
                }
            }
            sender.flush();
            a[2] = ThreadAllocation.current() - allocated;
            a[0] = sequence;
        }, () -> receiveAll(receiver, false, b));
        return new Measured(a[0], b[0] - a[1], new long[0], 0, a[2], b[1]);
    }

    /**
     * The passive end of both patterns: receives in order until the last message, echoing each
     * when {@code echo}, then flushes; {@code out[0]} is the last one's arrival, {@code out[1]} the
     * bytes the thread allocated meanwhile.
     */
    private static void receiveAll(Link link, boolean echo, long[] out) throws Exception {
        long allocated = ThreadAllocation.current();
        long sequence = 0;
        while (true) {
            long word = link.receive();
            Stamp.expect(word, sequence++);
            if (echo) {
                link.send(word);
            }
            if (Stamp.isLast(word)) {
                out[0] = System.nanoTime();
                break;
            }
        }
        link.flush();
        out[1] = ThreadAllocation.current() - allocated;
    }

    @FunctionalInterface
    private interface Body {
        void run() throws Exception;
    }

    /** Runs both ends on platform threads; on a failure aborts both links so neither hangs, then throws it. */
    private static void run(String pattern, Link linkA, Link linkB, long durationNanos, Body bodyA, Body bodyB)
            throws Exception {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread[] threads = new Thread[2];
        Body[] bodies = {bodyA, bodyB};
        for (int i = 0; i < 2; i++) {
            Body body = bodies[i];
            threads[i] = Thread.ofPlatform().name(pattern + (i == 0 ? "-a" : "-b")).start(() -> {
                try {
                    body.run();
                } catch (Throwable e) {
                    if (failure.compareAndSet(null, e)) {
                        linkA.abort();
                        linkB.abort();
                    }
                }
            });
        }
        long deadline = System.nanoTime() + durationNanos + GRACE.toNanos();
        for (Thread thread : threads) {
            long left = Math.max(1, (deadline - System.nanoTime()) / 1_000_000);
            if (!thread.join(Duration.ofMillis(left))) {
                linkA.abort();
                linkB.abort();
                thread.join(Duration.ofSeconds(30));
                throw new IllegalStateException(pattern + ": " + thread.getName() + " still running " + GRACE
                        + " after the phase should have ended", failure.get());
            }
        }
        if (failure.get() instanceof Exception e) {
            throw e;
        } else if (failure.get() != null) {
            throw new IllegalStateException(pattern + " failed", failure.get());
        }
    }
}
