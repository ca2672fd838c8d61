package dev.panamaverbs.benchmarks;

import dev.panamaverbs.CompletionQueue;
import dev.panamaverbs.Completions;
import dev.panamaverbs.Context;
import dev.panamaverbs.MemoryRegion;
import dev.panamaverbs.QueuePair;
import dev.panamaverbs.ReceiveWorkRequest;
import dev.panamaverbs.SendWorkRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * Issue 23's throughput comparison: 64-byte SEND/RECV round trips summed over
 * {@code connections} RC loop-back connections on one device, each end served by a thread of its
 * own, in two modes side by side in one process: <b>busy</b>, a platform thread per end spinning
 * on {@code ibv_poll_cq}; then <b>poller</b>, a virtual thread per end waiting through the poller
 * ({@link CompletionQueue#awaitCompletions} on a completion queue with a completion channel).
 * Needs a device (run it in the rxe VM). A whole process, not JMH: the answer is one rate per mode.
 * <pre>java --enable-native-access=ALL-UNNAMED -cp benchmarks.jar dev.panamaverbs.benchmarks.PollerThroughput 100 10</pre>
 * Prints each mode's round trips per second and the ratio poller / busy.
 */
public final class PollerThroughput {
    private static final int MESSAGE = 64;
    /** The longest park of a poller-mode wait: only bounds how late a thread sees the stop. */
    private static final Duration SLICE = Duration.ofMillis(100);

    private PollerThroughput() {}

    public static void main(String[] args) throws Exception {
        int connections = args.length > 0 ? Integer.parseInt(args[0]) : 100;
        int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        double busy = run(connections, seconds, false);
        double poller = run(connections, seconds, true);
        System.out.printf("PollerThroughput: %d connections, %d s each: busy %.0f round trips/s, poller %.0f round trips/s,"
                + " poller/busy %.2f%n", connections, seconds, busy, poller, poller / busy);
    }

    /** Round trips per second over {@code seconds}, after a warm-up second. */
    static double run(int connections, int seconds, boolean poller) throws Exception {
        Context context = LoopbackPair.openContext();
        try {
            List<LoopbackPair> pairs = new ArrayList<>();
            for (int i = 0; i < connections; i++) {
                pairs.add(LoopbackPair.openOn(context, 4, 4096, Set.of(), poller));
            }
            LongAdder roundTrips = new LongAdder();
            Stop stop = new Stop();
            List<Thread> threads = new ArrayList<>();
            Thread.Builder builder = poller ? Thread.ofVirtual() : Thread.ofPlatform().daemon();
            for (LoopbackPair pair : pairs) {
                End client = new End(pair.a(), pair.queueA(), pair.bufferA(), poller, stop);
                End server = new End(pair.b(), pair.queueB(), pair.bufferB(), poller, stop);
                server.postReceive();
                threads.add(builder.start(() -> stop.run(() -> {
                    while (!stop.requested) {
                        client.postReceive();
                        client.send();
                        if (!client.await(2)) {
                            return;
                        }
                        roundTrips.increment();
                    }
                })));
                threads.add(builder.start(() -> stop.run(() -> {
                    while (!stop.requested) {
                        if (!server.await(1)) {
                            return;
                        }
                        server.postReceive();
                        server.send();
                        if (!server.await(1)) {
                            return;
                        }
                    }
                })));
            }
            Thread.sleep(1000);
            long before = roundTrips.sum();
            long start = System.nanoTime();
            Thread.sleep(seconds * 1000L);
            long count = roundTrips.sum() - before;
            double elapsed = (System.nanoTime() - start) / 1e9;
            stop.requested = true;
            for (Thread thread : threads) {
                thread.join(Duration.ofSeconds(30));
            }
            if (stop.failure.get() != null) {
                throw new IllegalStateException("a connection failed", stop.failure.get());
            }
            double rate = count / elapsed;
            System.out.printf("  %s: %d round trips in %.1f s over %d connections: %.0f/s%n", poller ? "poller" : "busy",
                    count, elapsed, connections, rate);
            return rate;
        } finally {
            context.close();
        }
    }

    /** The stop flag and the first failure of any thread. */
    private static final class Stop {
        volatile boolean requested;
        final AtomicReference<Throwable> failure = new AtomicReference<>();

        void run(Body body) {
            try {
                body.run();
            } catch (Throwable e) {
                failure.compareAndSet(null, e);
                requested = true;
            }
        }
    }

    @FunctionalInterface
    private interface Body {
        void run() throws Exception;
    }

    /** One end of a connection: its queue pair, completion queue and two 64-byte slots (send, receive). */
    private static final class End {
        private final QueuePair qp;
        private final CompletionQueue cq;
        private final boolean poller;
        private final Stop stop;
        private final SendWorkRequest send;
        private final ReceiveWorkRequest receive;
        private final Completions wc = Completions.allocate(4);
        /** Completions polled beyond what the last {@link #await} asked for (they are counted, not told apart). */
        private int banked;

        End(QueuePair qp, CompletionQueue cq, MemoryRegion buffer, boolean poller, Stop stop) {
            this.qp = qp;
            this.cq = cq;
            this.poller = poller;
            this.stop = stop;
            this.send = SendWorkRequest.allocate(1).signaled(true).sge(buffer, 0, MESSAGE);
            this.receive = ReceiveWorkRequest.allocate(1).sge(0, buffer, MESSAGE, MESSAGE);
        }

        void postReceive() {
            qp.postReceive(receive);
        }

        void send() {
            qp.postSend(send);
        }

        /** Waits for {@code count} successful completions; false once stopped. */
        boolean await(int count) throws InterruptedException {
            int got = Math.min(banked, count);
            banked -= got;
            while (got < count) {
                if (stop.requested) {
                    return false;
                }
                int n = poller ? cq.awaitCompletions(wc, SLICE) : cq.poll(wc);
                for (int i = 0; i < n; i++) {
                    wc.throwIfFailed(i);
                }
                got += n;
            }
            banked += got - count;
            return true;
        }
    }
}
