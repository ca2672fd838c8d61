package dev.panamaverbs.benchmarks.poller;

import dev.panamaverbs.events.PollSource;
import dev.panamaverbs.events.Poller;
import dev.panamaverbs.gateway.EventFd;
import java.lang.foreign.Arena;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Host-only (no device): the poller against the back-off it replaces, on eventfds, which is what
 * a completion channel's fd is to either of them.
 * <ul>
 *   <li>{@code wakeUpPoller} / {@code wakeUpBackoff}: from an eventfd write on the benchmark
 *       thread to a virtual thread, waiting in the library's event wait ({@link EventFileWait}),
 *       having read it and said so; sample time, so p50 and p99. Each wake-up follows an idle
 *       {@code idleMicros} (not timed), so the waiter is in its steady state: parked on the
 *       poller, or at the back-off's longest park. The back-off fork sets
 *       {@code -Dpanamaverbs.poller=false}.</li>
 *   <li>{@code dispatchCycle}: a handler on a {@link PollSource} of a private poller: write, the
 *       poller thread dispatches, the handler reads the eventfd, the fd is re-armed; for
 *       {@code -prof gc} (0 B/op is the target).</li>
 * </ul>
 * The idle cost of 1,000 waiters is a whole-process measurement: {@link PollerIdleCost}.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class PollerBench {

    /** One eventfd and one virtual thread waiting on it through the library's event wait. */
    @State(Scope.Benchmark)
    public static class Waiter {
        /** Idle time before each wake-up, untimed. */
        @Param({"3000"})
        public int idleMicros;

        private Arena arena;
        private EventFd eventFd;
        private EventFileWait wait;
        private Thread thread;
        private volatile long woken;
        private volatile boolean running = true;

        @Setup(Level.Trial)
        public void start() {
            arena = Arena.ofShared();
            eventFd = EventFd.open(arena);
            wait = new EventFileWait(eventFd.fd(), arena);
            thread = Thread.ofVirtual().name("bench-waiter").start(() -> {
                try {
                    while (running) {
                        wait.await();
                        woken++;
                    }
                } catch (InterruptedException e) {
                    // stopping
                }
            });
        }

        @Setup(Level.Invocation)
        public void idle() {
            LockSupport.parkNanos(idleMicros * 1_000L);
        }

        long wakeUp() {
            long before = woken;
            int rc = eventFd.write(1);
            if (rc != 0) {
                throw new IllegalStateException("eventfd write: errno " + -rc);
            }
            while (woken == before) {
                Thread.onSpinWait();
            }
            return before;
        }

        @TearDown(Level.Trial)
        public void stop() throws InterruptedException {
            running = false;
            eventFd.write(1);
            thread.join(5_000);
            wait.close();
            eventFd.close();
            arena.close();
        }
    }

    /** A handler on a private poller's eventfd source. */
    @State(Scope.Benchmark)
    public static class Handled {
        private Poller poller;
        private Arena arena;
        private EventFd eventFd;
        private PollSource source;
        private volatile long handled;

        @Setup(Level.Trial)
        public void start() {
            poller = Poller.start("bench-poller");
            arena = Arena.ofShared();
            eventFd = EventFd.open(arena);
            source = poller.register(eventFd.fd(), "bench eventfd");
            source.setHandler(() -> {
                if (eventFd.read() > 0) {
                    handled++;
                }
            });
        }

        @TearDown(Level.Trial)
        public void stop() {
            poller.close();
            eventFd.close();
            arena.close();
        }
    }

    @Benchmark
    public long wakeUpPoller(Waiter waiter) {
        return waiter.wakeUp();
    }

    @Benchmark
    @Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Dpanamaverbs.poller=false"})
    public long wakeUpBackoff(Waiter waiter) {
        return waiter.wakeUp();
    }

    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    public long dispatchCycle(Handled h) {
        long before = h.handled;
        int rc = h.eventFd.write(1);
        if (rc != 0) {
            throw new IllegalStateException("eventfd write: errno " + -rc);
        }
        while (h.handled == before) {
            Thread.onSpinWait();
        }
        return before;
    }
}
