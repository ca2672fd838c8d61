package dev.panamaverbs.benchmarks.poller;

import dev.panamaverbs.gateway.Epoll;
import dev.panamaverbs.gateway.Libc;
import java.lang.foreign.Arena;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The idle cost of waiting: this JVM's CPU time ({@code OperatingSystemMXBean.getProcessCpuTime})
 * while {@code threads} virtual threads each wait on an idle eventfd of its own in the library's
 * event wait ({@link EventFileWait}), for {@code seconds}, after a settling second. A whole process
 * per mode, like the cold start, not JMH: the answer is one CPU time, not a time per operation.
 * Run once with the poller and once with {@code -Dpanamaverbs.poller=false} (the back-off):
 * <pre>java --enable-native-access=ALL-UNNAMED -cp benchmarks.jar dev.panamaverbs.benchmarks.poller.PollerIdleCost 1000 10</pre>
 * Prints one line: mode, threads, seconds, CPU milliseconds, and CPU per wall second.
 */
public final class PollerIdleCost {
    private PollerIdleCost() {}

    public static void main(String[] args) throws Exception {
        int threads = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 30;
        String mode = "false".equalsIgnoreCase(System.getProperty("panamaverbs.poller")) ? "backoff" : "poller";
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        Arena arena = Arena.ofShared();
        List<Integer> fds = new ArrayList<>();
        List<EventFileWait> waits = new ArrayList<>();
        List<Thread> waiters = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            int fd = Epoll.eventFd();
            if (fd < 0) {
                throw new IllegalStateException("eventfd: errno " + -fd + " after " + i);
            }
            fds.add(fd);
            EventFileWait wait = new EventFileWait(fd, arena);
            waits.add(wait);
            waiters.add(Thread.ofVirtual().start(() -> {
                try {
                    wait.await();
                } catch (InterruptedException e) {
                    // stopping
                }
            }));
        }
        Thread.sleep(1_000); // every waiter parked, the back-off at its longest park
        long cpuBefore = os.getProcessCpuTime();
        long wallBefore = System.nanoTime();
        Thread.sleep(TimeUnit.SECONDS.toMillis(seconds));
        long cpu = os.getProcessCpuTime() - cpuBefore;
        long wall = System.nanoTime() - wallBefore;
        for (int fd : fds) {
            Epoll.eventFdWrite(fd, 1); // the waiters read it and end
        }
        for (Thread waiter : waiters) {
            waiter.join(10_000);
        }
        waits.forEach(EventFileWait::close);
        fds.forEach(Libc::close);
        System.out.printf("mode=%s threads=%d seconds=%.1f cpuMillis=%.1f cpuPerWallSecond=%.4f%n", mode, threads,
                wall / 1e9, cpu / 1e6, (double) cpu / wall);
        System.exit(0);
    }
}
