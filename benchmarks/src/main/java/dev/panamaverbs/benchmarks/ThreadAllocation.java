package dev.panamaverbs.benchmarks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Bytes allocated by the current thread ({@code com.sun.management.ThreadMXBean
 * #getCurrentThreadAllocatedBytes}): the exact form of JMH's {@code gc.alloc.rate.norm}, which
 * sums every thread of the JVM (JMH's own infrastructure included: sample-time mode allocates a
 * new sample buffer per iteration on the benchmark thread, so with operations of microseconds its
 * noise shows as a few B/op there).
 *
 * <p>Reached reflectively, because the benchmarks run on the class path (JMH forks) and the
 * benchmarks module does not read {@code jdk.management}; {@link #isSupported()} is false where
 * that fails. {@link #of(Thread)} reads another platform thread's count the same way
 * ({@code getThreadAllocatedBytes(long)}): {@code MessagingCompare} reads the poller's.
 */
public final class ThreadAllocation {
    /** System property: a file each allocation check appends one line to. */
    static final String REPORT_PROPERTY = "panamaverbs.bench.allocationReport";

    private static final MethodHandle CURRENT_THREAD_ALLOCATED_BYTES = find("getCurrentThreadAllocatedBytes",
            MethodType.methodType(long.class));
    private static final MethodHandle THREAD_ALLOCATED_BYTES = find("getThreadAllocatedBytes",
            MethodType.methodType(long.class, long.class));

    private ThreadAllocation() {}

    private static MethodHandle find(String name, MethodType type) {
        try {
            Class<?> factory = Class.forName("java.lang.management.ManagementFactory");
            Object bean = factory.getMethod("getThreadMXBean").invoke(null);
            Class<?> hotspotBean = Class.forName("com.sun.management.ThreadMXBean");
            if (!hotspotBean.isInstance(bean)) {
                return null;
            }
            MethodHandle handle = MethodHandles.publicLookup().findVirtual(hotspotBean, name, type).bindTo(bean);
            long probe = type.parameterCount() == 0 ? (long) handle.invoke() : (long) handle.invoke(Thread.currentThread().threadId());
            return probe < 0 ? null : handle;
        } catch (Throwable t) {
            return null;
        }
    }

    /** {@return whether this JVM counts allocated bytes per thread} */
    public static boolean isSupported() {
        return CURRENT_THREAD_ALLOCATED_BYTES != null;
    }

    /** {@return the bytes the current thread has allocated so far} */
    public static long current() {
        try {
            return (long) CURRENT_THREAD_ALLOCATED_BYTES.invokeExact();
        } catch (Throwable t) {
            throw new IllegalStateException("getCurrentThreadAllocatedBytes failed", t);
        }
    }

    /**
     * {@return the bytes platform thread {@code thread} has allocated so far} (-1 once it ended, or
     * for a virtual thread)
     */
    public static long of(Thread thread) {
        try {
            return (long) THREAD_ALLOCATED_BYTES.invokeExact(thread.threadId());
        } catch (Throwable t) {
            throw new IllegalStateException("getThreadAllocatedBytes failed", t);
        }
    }

    /** What reading the counter twice in a row reports (its own cost, usually 0), to subtract. */
    static long calibration() {
        long least = Long.MAX_VALUE;
        for (int i = 0; i < 16; i++) {
            long before = current();
            long after = current();
            least = Math.min(least, after - before);
        }
        return least;
    }

    /** One invocation of the benchmark method an allocation check runs. */
    @FunctionalInterface
    interface Invocation {
        void run() throws InterruptedException;
    }

    /**
     * Bytes this thread allocates in {@code invocations} calls of {@code invocation}, less the
     * counter's own cost ({@link #calibration()}). The calls have native side effects, so none can
     * be optimised away.
     */
    static long allocatedIn(int invocations, Invocation invocation) throws InterruptedException {
        long calibration = calibration();
        long before = current();
        for (int i = 0; i < invocations; i++) {
            invocation.run();
        }
        return current() - before - calibration;
    }

    /**
     * Prints the result of an allocation check and, when {@value #REPORT_PROPERTY} names a file,
     * appends {@code benchmark bytes invocations} to it.
     */
    static void report(String benchmark, long bytes, long invocations) {
        System.out.printf("# allocation check: %s allocated %d bytes on the benchmark thread in %d invocations"
                + " after measurement (%.3f B/invocation)%s%n", benchmark, bytes, invocations,
                (double) bytes / invocations, bytes == 0 ? "" : "  <-- the data path allocates");
        String file = System.getProperty(REPORT_PROPERTY);
        if (file != null && !file.isBlank()) {
            try {
                Files.writeString(Path.of(file), benchmark + " " + bytes + " " + invocations + "\n",
                        StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
