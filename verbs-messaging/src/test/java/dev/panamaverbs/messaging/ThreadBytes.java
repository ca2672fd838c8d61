package dev.panamaverbs.messaging;

import java.lang.management.ManagementFactory;

/**
 * The bytes the calling thread allocates over a loop ({@code com.sun.management.ThreadMXBean},
 * exact, this thread only), for the messaging module's allocation tests.
 */
public final class ThreadBytes {
    /** One cycle of the path under test; made once, so calling it allocates nothing itself. */
    public interface Cycle {
        void run(int i) throws Exception;
    }

    /** Cycles before measuring: past C2's compile thresholds, as verbs-core's allocation tests. */
    public static final int WARM_UP = 30_000;
    /** Cycles measured. */
    public static final int MEASURED = 10_000;

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private ThreadBytes() {}

    /** {@return the bytes this thread allocated over {@link #MEASURED} cycles of {@code cycle}, after {@link #WARM_UP}} */
    public static long measure(Cycle cycle) throws Exception {
        if (!THREADS.isThreadAllocatedMemorySupported()) {
            throw new IllegalStateException("this JVM cannot count a thread's allocated bytes");
        }
        THREADS.setThreadAllocatedMemoryEnabled(true);
        long before = 0;
        for (int i = 0; i < WARM_UP + MEASURED; i++) {
            if (i == WARM_UP) {
                before = THREADS.getCurrentThreadAllocatedBytes(); // the warm-up's end
            }
            cycle.run(i);
        }
        return THREADS.getCurrentThreadAllocatedBytes() - before;
    }
}
