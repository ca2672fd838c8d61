package dev.panamaverbs.loader;

/** Rethrows what a downcall's {@code invokeExact} declares, without wrapping unchecked ones. */
final class Invoke {
    private Invoke() {}

    static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException runtime) {
            return runtime;
        }
        if (t instanceof Error error) {
            throw error;
        }
        // Downcalls throw nothing checked; this is here only for the compiler.
        return new IllegalStateException("unexpected exception from a downcall", t);
    }
}
