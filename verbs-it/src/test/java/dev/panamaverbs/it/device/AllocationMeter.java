package dev.panamaverbs.it.device;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;

/**
 * The bytes one thread allocates over a loop of data-path operations
 * ({@code com.sun.management.ThreadMXBean#getCurrentThreadAllocatedBytes}, exact, this thread
 * only), for {@link DataPathAllocation}'s child JVM. Used only there: the child runs on the class
 * path, where {@code jdk.management} and {@code jdk.jfr} are read.
 */
final class AllocationMeter {
    /** One data-path operation; an instance is made once, so calling it allocates nothing itself. */
    interface Op {
        void run(long i) throws Exception;
    }

    /** The loop the meter runs around nothing: what measuring costs by itself. */
    static final Op EMPTY = i -> { };

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private AllocationMeter() {}

    static void enable() {
        if (!THREADS.isThreadAllocatedMemorySupported()) {
            throw new IllegalStateException("this JVM cannot count a thread's allocated bytes");
        }
        THREADS.setThreadAllocatedMemoryEnabled(true);
    }

    /** Runs {@code op} {@code warmUp} times, then returns the bytes this thread allocated over {@code ops} more. */
    static long measure(Op op, int warmUp, int ops) throws Exception {
        for (int i = 0; i < warmUp; i++) {
            op.run(i);
        }
        long before = THREADS.getCurrentThreadAllocatedBytes();
        for (int i = warmUp; i < warmUp + ops; i++) {
            op.run(i);
        }
        return THREADS.getCurrentThreadAllocatedBytes() - before;
    }

    /**
     * Where {@code op} allocates: {@code ops} more runs inside a JFR recording of
     * {@code jdk.ObjectAllocationOutsideTLAB} (every allocation is one when the JVM runs with
     * {@code -XX:-UseTLAB}), this thread's events grouped by class and the top frames, the most
     * frequent first; each with its frames down to the second library frame, at most {@code frames}.
     */
    static List<String> sites(Op op, int ops, int frames) throws Exception {
        Path file = Files.createTempFile("allocation-sites", ".jfr");
        try (Recording recording = new Recording()) {
            recording.enable("jdk.ObjectAllocationOutsideTLAB").withStackTrace();
            recording.enable("jdk.ObjectAllocationInNewTLAB").withStackTrace();
            recording.start();
            for (int i = 0; i < ops; i++) {
                op.run(i);
            }
            recording.stop();
            recording.dump(file);
        }
        long thread = Thread.currentThread().threadId();
        Map<String, Integer> counts = new HashMap<>();
        for (RecordedEvent event : RecordingFile.readAllEvents(file)) {
            if (event.getThread() == null || event.getThread().getJavaThreadId() != thread || event.getStackTrace() == null
                    || isRecorders(event.getStackTrace().getFrames())) {
                continue;
            }
            StringBuilder site = new StringBuilder(event.getClass("objectClass").getName());
            List<RecordedFrame> stack = event.getStackTrace().getFrames();
            // Down to the second library frame (the JDK's frames above it say how, those say where).
            int library = 0;
            for (int f = 0; f < Math.min(frames, stack.size()) && library < 2; f++) {
                RecordedFrame frame = stack.get(f);
                String type = frame.getMethod().getType().getName();
                if (type.startsWith("dev.panamaverbs.") && !type.startsWith("dev.panamaverbs.it.")) {
                    library++;
                }
                site.append("\n      at ").append(frame.getMethod().getType().getName()).append('.')
                        .append(frame.getMethod().getName()).append(':').append(frame.getLineNumber())
                        .append(" (").append(frame.getType()).append(')');
            }
            counts.merge(site.toString(), 1, Integer::sum);
        }
        deleteQuietly(file);
        List<Map.Entry<String, Integer>> sorted = new ArrayList<>(counts.entrySet());
        sorted.sort(Map.Entry.<String, Integer>comparingByValue().reversed());
        List<String> lines = new ArrayList<>();
        for (Map.Entry<String, Integer> e : sorted.subList(0, Math.min(8, sorted.size()))) {
            lines.add(e.getValue() + " x " + e.getKey());
        }
        return lines;
    }

    /**
     * An allocation of the recording's own start or stop: no frame of the measured operation (the
     * library's or the loop's) on its stack, only JFR's and the meter's.
     */
    private static boolean isRecorders(List<RecordedFrame> stack) {
        for (RecordedFrame frame : stack) {
            String type = frame.getMethod().getType().getName();
            if (type.startsWith("dev.panamaverbs.") && !type.equals(AllocationMeter.class.getName())
                    && !type.equals(DataPathAllocation.class.getName())) {
                return false;
            }
        }
        return true;
    }

    private static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException ignored) {
            // a temporary file left behind
        }
    }
}
