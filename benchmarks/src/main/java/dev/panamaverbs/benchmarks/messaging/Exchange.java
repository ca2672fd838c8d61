package dev.panamaverbs.benchmarks.messaging;

import dev.panamaverbs.benchmarks.ThreadAllocation;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The two patterns {@link MessagingCompare} runs over any {@link Link} pair, each end on a platform
 * thread of its own (the two-host bench runs each end's loop on its own host and joins their
 * {@link End}s with {@link #acrossHosts}): round trips (the client sends, the server checks and echoes, the client waits
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

    /**
     * What one end's loop saw, on its own clock: the client's from its first send to the last
     * echo's arrival, the sender's over its sending, the passive end's from the first arrival to
     * the last.
     *
     * @param messages     messages it sent (client, sender) or received (passive end)
     * @param first        System.nanoTime of its first send, or of the first arrival
     * @param last         System.nanoTime of the last echo's arrival, or of the last arrival (the sender: its loop's end)
     * @param latencyCount round trip times kept (the client only)
     * @param allocated    bytes the end's thread allocated in its loop
     */
    record End(long messages, long first, long last, int latencyCount, long allocated) {}

    /** Round trips between {@code client} and {@code server} for about {@code durationNanos}. */
    static Measured roundTrips(Link client, Link server, long durationNanos, long[] latencies) throws Exception {
        End[] ends = new End[2];
        run("round-trip", client, server, durationNanos, () -> ends[0] = client(client, durationNanos, latencies),
                () -> ends[1] = receiveAll(server, true));
        return new Measured(ends[0].messages(), ends[0].last() - ends[0].first(), latencies, ends[0].latencyCount(),
                ends[0].allocated(), ends[1].allocated());
    }

    /** One-way messages from {@code sender} to {@code receiver} for about {@code durationNanos}. */
    static Measured oneWay(Link sender, Link receiver, long durationNanos) throws Exception {
        End[] ends = new End[2];
        run("one-way", sender, receiver, durationNanos, () -> ends[0] = send(sender, durationNanos),
                () -> ends[1] = receiveAll(receiver, false));
        // One clock: from the first send to the last arrival.
        return new Measured(ends[0].messages(), ends[1].last() - ends[0].first(), new long[0], 0, ends[0].allocated(),
                ends[1].allocated());
    }

    /**
     * A phase whose ends ran on two hosts, {@code a} the client or sender, {@code b} the passive
     * end, each timed on its own clock: round trips by the client, as {@link #roundTrips} does;
     * one way by the receiver, from the first arrival to the last, over the messages after the
     * first (the hosts' clocks are not comparable, so the sender's start cannot be used).
     *
     * @throws IllegalStateException when the ends counted different numbers of messages
     */
    static Measured acrossHosts(boolean roundTrips, End a, End b, long[] latencies) {
        if (a.messages() != b.messages()) {
            throw new IllegalStateException("end A counted " + a.messages() + " messages, end B " + b.messages());
        }
        if (roundTrips) {
            return new Measured(a.messages(), a.last() - a.first(), latencies, a.latencyCount(), a.allocated(), b.allocated());
        }
        return new Measured(b.messages() - 1, b.last() - b.first(), new long[0], 0, a.allocated(), b.allocated());
    }

    /**
     * The client's loop of the round trips: sends, waits for the echo and checks it, for about
     * {@code durationNanos}; the first round trip times go into {@code latencies}.
     */
    static End client(Link client, long durationNanos, long[] latencies) throws Exception {
        long allocated = ThreadAllocation.current();
        long start = System.nanoTime();
        long end = start + durationNanos;
        long sequence = 0;
        int kept = 0;
        long t1;
        while (true) {
            long t0 = System.nanoTime();
            boolean last = t0 - end >= 0;
            long word = Stamp.word(sequence, last);
            client.send(word);
            long echo = client.receive();
            t1 = System.nanoTime();
            if (echo != word) {
                throw new IllegalStateException("echo " + echo + " came back for " + word);
            }
            if (kept < latencies.length) {
                latencies[kept++] = t1 - t0;
            }
            sequence++;
            if (last) {
                break;
            }
        }
        client.flush();
        return new End(sequence, start, t1, kept, ThreadAllocation.current() - allocated);
    }

    /** The sender's loop of the one-way pattern: sends as fast as flow control lets it for about {@code durationNanos}. */
    static End send(Link sender, long durationNanos) throws Exception {
        long allocated = ThreadAllocation.current();
        long start = System.nanoTime();
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
        return new End(sequence, start, System.nanoTime(), 0, ThreadAllocation.current() - allocated);
    }

    /**
     * The passive end of both patterns: receives in order until the last message, echoing each
     * when {@code echo}, then flushes.
     */
    static End receiveAll(Link link, boolean echo) throws Exception {
        long allocated = ThreadAllocation.current();
        long sequence = 0;
        long first = 0;
        while (true) {
            long word = link.receive();
            if (sequence == 0) {
                first = System.nanoTime();
            }
            Stamp.expect(word, sequence++);
            if (echo) {
                link.send(word);
            }
            if (Stamp.isLast(word)) {
                long last = System.nanoTime();
                link.flush();
                return new End(sequence, first, last, 0, ThreadAllocation.current() - allocated);
            }
        }
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
