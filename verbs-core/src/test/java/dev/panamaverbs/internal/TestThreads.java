package dev.panamaverbs.internal;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;

/** Runs a test's waiting body on a virtual or a platform thread, its outcome as a future: the wait tests' one way to do it. */
public final class TestThreads {
    private TestThreads() {}

    /**
     * Starts {@code body} on a new virtual thread, or a platform daemon thread.
     *
     * @param virtual whether the thread is virtual
     * @param body what the thread runs
     * @param <T> the result type
     * @return completed with the body's result, or exceptionally with what it threw
     */
    public static <T> CompletableFuture<T> start(boolean virtual, Callable<T> body) {
        CompletableFuture<T> result = new CompletableFuture<>();
        Runnable run = () -> {
            try {
                result.complete(body.call());
            } catch (Throwable t) {
                result.completeExceptionally(t);
            }
        };
        if (virtual) {
            Thread.ofVirtual().start(run);
        } else {
            Thread.ofPlatform().daemon().start(run);
        }
        return result;
    }
}
