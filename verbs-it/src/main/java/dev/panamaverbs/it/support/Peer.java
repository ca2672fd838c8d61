package dev.panamaverbs.it.support;

import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Assertions;

/**
 * A peer process on host B, started by {@link TwoHosts#startPeer}. Every wait has a timeout;
 * when a wait fails (the peer exited early, or the time ran out) the test fails with the peer's
 * output, and a peer that is still running is killed first. Closing kills a peer that is still
 * running; the {@link TwoHostExtension} closes every peer a test started when the test ends.
 */
public final class Peer implements AutoCloseable {
    /** How long {@link #close()} waits for host B's agent to confirm a kill. */
    static final Duration KILL_WAIT = Duration.ofSeconds(20);
    private static final long POLL_MILLIS = 50;
    /** Lines of output a failure message carries (the end of it). */
    private static final int OUTPUT_LINES = 80;

    private final PeerJob job;
    private final String name;

    Peer(PeerJob job, String name) {
        this.job = job;
        this.name = name;
    }

    /**
     * e.g. {@code RcPeer (job 003-RcPeer on host B)}.
     *
     * @return e.g.
     */
    public String name() {
        return name;
    }

    /**
     * Waits up to {@code timeout} for the value the peer publishes under {@code key}
     * ({@link PeerSide#publish}); fails with the peer's output if it exits first or time runs out.
     * @param key the key
     * @param timeout the timeout
     * @return waits up to {@code timeout} for the value the peer publishes under {@code key} ({@link PeerSide#publish}); fails with the peer's output if it exits first or time runs out.
     */
    public String awaitValue(String key, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            var value = PeerJob.readIfPresent(job.value(key));
            if (value.isPresent()) {
                return value.get().strip();
            }
            OptionalInt exit = job.exitStatus();
            if (exit.isPresent()) {
                return Assertions.fail(name + " exited " + exit.getAsInt() + " before publishing '" + key + "'" + outputSection());
            }
            if (System.nanoTime() > deadline) {
                kill();
                return Assertions.fail(name + " published no '" + key + "' within " + timeout + " (killed)" + outputSection());
            }
            pause();
        }
    }

    /**
     * The value the peer published under {@code key}, if it has yet; never waits.
     *
     * @param key the key ({@link PeerSide#publish})
     * @return the value, stripped, or empty while the peer has not published it
     */
    public java.util.Optional<String> value(String key) {
        return PeerJob.readIfPresent(job.value(key)).map(String::strip);
    }

    /**
     * {@link #awaitValue(String, Duration)} parsed as an int.
     *
     * @param key the key
     * @param timeout the timeout
     * @return {@link #awaitValue(String, Duration)} parsed as an int.
     */
    public int awaitInt(String key, Duration timeout) {
        return Integer.parseInt(awaitValue(key, timeout));
    }

    /**
     * Waits up to {@code timeout} for the peer to exit and returns how it ended; on timeout it is
     * killed and the test fails with its output.
     * @param timeout the timeout
     * @return waits up to {@code timeout} for the peer to exit and returns how it ended; on timeout it is killed and the test fails with its output.
     */
    public PeerResult awaitExit(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            OptionalInt exit = job.exitStatus();
            if (exit.isPresent()) {
                return new PeerResult(exit.getAsInt(), job.outputText());
            }
            if (System.nanoTime() > deadline) {
                kill();
                return Assertions.fail(name + " did not exit within " + timeout + " (killed)" + outputSection());
            }
            pause();
        }
    }

    /**
     * Waits for the peer to exit and fails the test, with its output, unless it exited 0.
     *
     * @param timeout the timeout
     * @return waits for the peer to exit and fails the test, with its output, unless it exited 0.
     */
    public PeerResult assertSucceeded(Duration timeout) {
        PeerResult result = awaitExit(timeout);
        if (!result.succeeded()) {
            Assertions.fail(name + " exited " + result.exitStatus() + outputSection());
        }
        return result;
    }

    /** Whether host B's agent has started the peer's process. */
    boolean hasStarted() {
        return Files.exists(job.started());
    }

    /**
     * Whether the peer has exited (as far as host B's agent has reported).
     *
     * @return whether the peer has exited (as far as host B's agent has reported).
     */
    public boolean hasExited() {
        return job.exitStatus().isPresent();
    }

    /**
     * The peer's output so far.
     *
     * @return the peer's output so far.
     */
    public String output() {
        return job.outputText();
    }

    /** Asks host B to kill the peer, and waits (bounded) until it is gone. Does nothing once it exited. */
    public void kill() {
        if (hasExited()) {
            return;
        }
        PeerJob.writeAtomically(job.kill(), "kill\n");
        long deadline = System.nanoTime() + KILL_WAIT.toNanos();
        while (!hasExited() && System.nanoTime() < deadline) {
            pause();
        }
    }

    /** Kills the peer if it still runs. */
    @Override
    public void close() {
        if (Files.exists(job.request())) {
            kill();
        }
    }

    /** The end of the peer's output, for failure messages. */
    String outputSection() {
        List<String> lines = job.outputText().lines().toList();
        List<String> tail = lines.subList(Math.max(0, lines.size() - OUTPUT_LINES), lines.size());
        return "\n---- output of " + name + (tail.size() < lines.size() ? " (last " + OUTPUT_LINES + " lines)" : "")
                + ", " + job.output() + " ----\n" + String.join("\n", tail) + "\n---- end of the peer's output ----";
    }

    private static void pause() {
        try {
            Thread.sleep(POLL_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the peer", e);
        }
    }
}
