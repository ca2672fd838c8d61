package dev.panamaverbs.it.fuzz;

import java.util.Collection;
import java.util.List;

/** The end of a fuzz case's worker threads, which the case's closes must stop. */
final class FuzzWorkers {
    private FuzzWorkers() {}

    /**
     * Waits up to 10 s for each worker and fails when one is still running ("a worker did not
     * {@code stopText}") or when any ended with a throwable the case did not expect (the first
     * message {@code unexpectedText}, each throwable suppressed in it).
     */
    static void awaitEnd(List<Thread> workers, Collection<Throwable> unexpected, String stopText, String unexpectedText)
            throws InterruptedException {
        for (Thread worker : workers) {
            worker.join(10_000);
            if (worker.isAlive()) {
                throw new AssertionError("a worker did not " + stopText);
            }
        }
        if (!unexpected.isEmpty()) {
            AssertionError error = new AssertionError(unexpectedText + ": " + unexpected);
            unexpected.forEach(error::addSuppressed);
            throw error;
        }
    }
}
