package dev.panamaverbs.it.fuzz;

import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import org.opentest4j.TestAbortedException;

/**
 * The cases of one misuse-fuzz category in a child JVM: each runs on the calling thread and ends
 * {@code clean}, {@code refused} (one of the exceptions it expects) or {@code UNEXPECTED}, one
 * {@link FuzzReport} line each. A watchdog stops the process when a case runs longer than
 * {@link #CASE_LIMIT_MILLIS}: it prints a hang line and every thread's stack, then halts with
 * status {@value #HANG_STATUS}, so a hang is named instead of running into the parent's timeout.
 */
final class FuzzRun {
    /** The longest a case may take (TCG is slow; a correct case takes well under a second). */
    static final long CASE_LIMIT_MILLIS = 20_000;
    static final int HANG_STATUS = 3;
    /** What a misuse may throw unless a case says otherwise. */
    static final List<Class<? extends Throwable>> MISUSE = List.of(IllegalStateException.class,
            IllegalArgumentException.class, IndexOutOfBoundsException.class, UnsupportedOperationException.class,
            dev.panamaverbs.VerbsException.class);

    /** A case's body; it may throw anything, which the run classifies. */
    interface Body {
        void run() throws Throwable;
    }

    private final String category;
    private final Random random;
    private final AtomicLong cases = new AtomicLong();
    private volatile boolean failed;
    private volatile String current;
    private volatile long startedNanos;

    FuzzRun(String category, long seed) {
        this.category = category;
        this.random = new Random(seed);
        Thread watchdog = Thread.ofPlatform().daemon().name("fuzz watchdog").unstarted(this::watch);
        watchdog.start();
    }

    Random random() {
        return random;
    }

    long cases() {
        return cases.get();
    }

    boolean failed() {
        return failed;
    }

    /** A case whose misuse may throw any of {@link #MISUSE}, or return. */
    void misuse(String name, Body body) {
        run(name, MISUSE, body);
    }

    /** A case that must end clean or with one of {@code expected}; anything else is UNEXPECTED. */
    void run(String name, List<Class<? extends Throwable>> expected, Body body) {
        String fullName = category + "/" + name;
        current = fullName;
        startedNanos = System.nanoTime();
        String line;
        try {
            body.run();
            line = FuzzReport.caseLine(fullName, FuzzReport.CLEAN, "");
        } catch (TestAbortedException skipped) {
            throw skipped; // the device lacks what the case needs: its part ends as a skip (FuzzCategory.Cases.all)
        } catch (Throwable t) {
            if (expected.stream().anyMatch(type -> type.isInstance(t))) {
                line = FuzzReport.caseLine(fullName, FuzzReport.REFUSED, t.getClass().getSimpleName());
            } else {
                failed = true;
                t.printStackTrace(System.out);
                line = FuzzReport.caseLine(fullName, FuzzReport.UNEXPECTED, t.toString());
            }
        } finally {
            current = null;
        }
        cases.incrementAndGet();
        System.out.println(line);
    }

    /** A part of the category the device cannot run, with the reason (naming the capability it lacks). */
    void skipped(String reason) {
        System.out.println(FuzzReport.skipLine(reason));
    }

    /** Fails the run with {@code what} as one UNEXPECTED case (a check outside the cases). */
    void unexpected(String name, String what) {
        failed = true;
        cases.incrementAndGet();
        System.out.println(FuzzReport.caseLine(category + "/" + name, FuzzReport.UNEXPECTED, what));
    }

    private void watch() {
        while (true) {
            try {
                Thread.sleep(500);
            } catch (InterruptedException e) {
                return;
            }
            String name = current;
            if (name != null && System.nanoTime() - startedNanos > CASE_LIMIT_MILLIS * 1_000_000) {
                System.out.println(FuzzReport.hangLine(name));
                for (Map.Entry<Thread, StackTraceElement[]> thread : Thread.getAllStackTraces().entrySet()) {
                    System.out.println("\"" + thread.getKey().getName() + "\" " + thread.getKey().getState());
                    for (StackTraceElement frame : thread.getValue()) {
                        System.out.println("    at " + frame);
                    }
                }
                System.out.flush();
                Runtime.getRuntime().halt(HANG_STATUS);
            }
        }
    }
}
