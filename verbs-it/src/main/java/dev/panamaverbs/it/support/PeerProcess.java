package dev.panamaverbs.it.support;

import java.time.Duration;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * One peer program of an interop test, wherever it runs ({@link PeerHost}): its output so far,
 * whether it is still alive and whether it listens yet, its exit awaited with a bound, and a kill.
 * Never left behind: {@link #close()} kills what still runs.
 */
public interface PeerProcess extends AutoCloseable {
    /** The peer's name in reports ("C rping server"). */
    String label();

    /** What the peer printed so far (stdout and stderr). */
    String output();

    boolean isAlive();

    /** Whether the peer listens on the port it was started to listen on (false for a client). */
    boolean isListening();

    /** Whether the peer's process has started (on host B: once B's agent took its job). */
    default boolean isStarted() {
        return true;
    }

    /** When the peer's first output came ({@link System#nanoTime()}), where that is seen as it comes; else empty. */
    default OptionalLong firstOutputAt() {
        return OptionalLong.empty();
    }

    /**
     * Waits up to {@code timeout} for the exit; returns the exit status, or empty after killing
     * the peer (and what it started) because it did not exit in time.
     */
    OptionalInt awaitExit(Duration timeout) throws InterruptedException;

    /** Kills the peer and everything it started, and waits (bounded) until it is gone. */
    void kill() throws InterruptedException;

    /** A report block: label, where it ran, command, and output ({@link #reportBlock}). */
    String describe();

    /** The one form of {@link #describe()}: a header line naming the peer, where it ran and its command, its output, a closing line. */
    static String reportBlock(String label, String where, java.util.List<String> command, String output) {
        return "---- " + label + " (" + where + "): " + String.join(" ", command) + "\n" + output + "---- end of " + label + "\n";
    }

    @Override
    default void close() throws InterruptedException {
        if (isAlive()) {
            kill();
        }
    }
}
