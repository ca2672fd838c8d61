package dev.panamaverbs.cm;

import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * The {@code *Async} forms of the blocking rdma_cm calls: the call runs on a new virtual thread,
 * whose waits park on the shared {@link dev.panamaverbs.events.Poller} (no platform thread is
 * held while the peer answers), and completes the returned future. A result that arrives after
 * the future was cancelled (or completed otherwise) is closed, so nothing leaks.
 */
final class AsyncCalls {
    private AsyncCalls() {}

    /** Runs {@code call} on a virtual thread named {@code name}; its result or exception completes the future. */
    static <T extends AutoCloseable> CompletableFuture<T> start(String name, Supplier<T> call) {
        CompletableFuture<T> future = new CompletableFuture<>();
        Thread.ofVirtual().name(name).start(() -> {
            T result;
            try {
                result = call.get();
            } catch (Throwable t) {
                future.completeExceptionally(t);
                return;
            }
            if (!future.complete(result)) {
                try {
                    result.close(); // no one will take it
                } catch (Exception e) {
                    future.obtrudeException(e);
                }
            }
        });
        return future;
    }
}
