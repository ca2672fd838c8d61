package dev.panamaverbs.it;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * A peer program run as a child process on this host: its output (stdout and stderr merged)
 * collected as it comes, its exit awaited with a bound, and the process with everything it
 * started killed when the bound passes.
 */
final class LocalPeerProcess implements PeerProcess {
    private final String label;
    private final List<String> command;
    private final Process process;
    private final BooleanSupplier listening;
    private final ByteArrayOutputStream output = new ByteArrayOutputStream();
    private final Thread drain;

    private LocalPeerProcess(String label, List<String> command, Process process, BooleanSupplier listening) {
        this.label = label;
        this.command = List.copyOf(command);
        this.process = process;
        this.listening = listening;
        this.drain = Thread.ofVirtual().name("drain " + label).start(() -> drain(process.getInputStream()));
    }

    /** Starts {@code command} on this host; {@code listening} tells whether it listens yet. */
    static LocalPeerProcess start(String label, List<String> command, BooleanSupplier listening) {
        return start(label, command, null, listening);
    }

    /** As {@link #start(String, List, BooleanSupplier)}, in working directory {@code directory} (null: this one's). */
    static LocalPeerProcess start(String label, List<String> command, java.nio.file.Path directory,
                                  BooleanSupplier listening) {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .directory(directory == null ? null : directory.toFile());
        try {
            return new LocalPeerProcess(label, command, builder.start(), listening);
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

    @Override
    public String label() {
        return label;
    }

    @Override
    public String output() {
        synchronized (output) {
            return output.toString(StandardCharsets.UTF_8);
        }
    }

    @Override
    public boolean isAlive() {
        return process.isAlive();
    }

    @Override
    public boolean isListening() {
        return listening.getAsBoolean();
    }

    @Override
    public java.util.OptionalInt awaitExit(Duration timeout) throws InterruptedException {
        if (process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            drain.join(Duration.ofSeconds(5));
            return java.util.OptionalInt.of(process.exitValue());
        }
        kill();
        return java.util.OptionalInt.empty();
    }

    @Override
    public void kill() throws InterruptedException {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
        drain.join(Duration.ofSeconds(5));
    }

    @Override
    public String describe() {
        return "---- " + label + " (this host): " + String.join(" ", command) + "\n" + output() + "---- end of " + label + "\n";
    }
}
