package dev.panamaverbs.it;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One peer program run as a child process: its output (stdout and stderr merged) collected as it
 * comes, its exit awaited with a bound, and the process with everything it started killed when
 * the bound passes. Never left behind: {@link #close()} kills what still runs.
 */
final class PeerProcess implements AutoCloseable {
    private final String label;
    private final List<String> command;
    private final Process process;
    private final ByteArrayOutputStream output = new ByteArrayOutputStream();
    private final Thread drain;

    private PeerProcess(String label, List<String> command, Process process) {
        this.label = label;
        this.command = List.copyOf(command);
        this.process = process;
        this.drain = Thread.ofVirtual().name("drain " + label).start(() -> drain(process.getInputStream()));
    }

    /** Starts {@code command} on this host. */
    static PeerProcess start(String label, List<String> command) {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        try {
            return new PeerProcess(label, command, builder.start());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + label + ": " + command, e);
        }
    }

    private void drain(InputStream in) {
        byte[] chunk = new byte[8192];
        try (in) {
            for (int n; (n = in.read(chunk)) >= 0; ) {
                synchronized (output) {
                    output.write(chunk, 0, n);
                }
            }
        } catch (IOException e) {
            // the process was killed: keep what came
        }
    }

    String label() {
        return label;
    }

    /** What the peer printed so far. */
    String output() {
        synchronized (output) {
            return output.toString(StandardCharsets.UTF_8);
        }
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /**
     * Waits up to {@code timeout} for the exit; returns the exit status, or empty after killing
     * the process (and its descendants) because it did not exit in time.
     */
    java.util.OptionalInt awaitExit(Duration timeout) throws InterruptedException {
        if (process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            drain.join(Duration.ofSeconds(5));
            return java.util.OptionalInt.of(process.exitValue());
        }
        kill();
        return java.util.OptionalInt.empty();
    }

    /** Kills the process and everything it started, and waits briefly for it to go. */
    void kill() throws InterruptedException {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
        drain.join(Duration.ofSeconds(5));
    }

    /** A report block: label, command, and output. */
    String describe() {
        return "---- " + label + ": " + String.join(" ", command) + "\n" + output() + "---- end of " + label + "\n";
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            kill();
        }
    }
}
