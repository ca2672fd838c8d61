package dev.panamaverbs.it.device;

import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;

/** The device tests' waiting threads: each runs one wait and keeps what it returned or threw, for the test to assert on. */
final class OutcomeThreads {
    private OutcomeThreads() {}

    /**
     * Starts {@code body} on a new virtual thread, or a platform daemon thread, named {@code name};
     * {@code outcome} gets its result, or the throwable it ended with.
     */
    static Thread start(boolean virtual, String name, AtomicReference<Object> outcome, Callable<?> body) {
        Runnable run = () -> {
            try {
                outcome.set(body.call());
            } catch (Throwable t) {
                outcome.set(t);
            }
        };
        return virtual ? Thread.ofVirtual().name(name).start(run) : Thread.ofPlatform().daemon().name(name).start(run);
    }
}
