package dev.panamaverbs.it.support;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * A peer program run as a child process on this host: its output (stdout and stderr merged)
 * collected as it comes, its exit awaited with a bound, and the process with everything it
 * started killed when the bound passes.
 */
public final class LocalPeerProcess extends CollectingPeerProcess {
    /** The system property naming the staged {@code peer.args} ({@code ./verbs test} sets it for the device tests). */
    public static final String PEER_ARGS = "panamaverbs.peer.args";

    private final Process process;
    private final BooleanSupplier listening;
    private final Thread drain;

    private LocalPeerProcess(String label, List<String> command, Process process, BooleanSupplier listening) {
        super(label, "this host", command);
        this.process = process;
        this.listening = listening;
        this.drain = Thread.ofVirtual().name("drain " + label).start(() -> drain(process.getInputStream()));
    }

    /** Starts {@code command} on this host; {@code listening} tells whether it listens yet. */
    public static LocalPeerProcess start(String label, List<String> command, BooleanSupplier listening) {
        return start(label, command, null, listening);
    }

    /** As {@link #start(String, List, BooleanSupplier)}, in working directory {@code directory} (null: this one's). */
    public static LocalPeerProcess start(String label, List<String> command, java.nio.file.Path directory,
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
                collected.append(chunk, 0, n);
            }
        } catch (IOException e) {
            // the process was killed: keep what came
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

    /** The staged {@code peer.args} java @argfile; fails the test when it is not staged. */
    public static String stagedArgFile() {
        String argFile = System.getProperty(PEER_ARGS);
        assertTrue(argFile != null && Files.isRegularFile(Path.of(argFile)),
                "the peer programs are not staged (system property " + PEER_ARGS + "; ./verbs test stages them)");
        return argFile;
    }

    /**
     * {@code java @argFile}, its class-data-sharing archive ({@link ChildJvmArchive}), {@code options},
     * and a crash report ({@code hs_err_pid*.log}) in {@code dir}.
     */
    public static List<String> javaCommand(String argFile, List<String> options, Path dir) {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "@" + argFile));
        command.addAll(ChildJvmArchive.optionsFor(argFile));
        command.addAll(options);
        command.add("-XX:ErrorFile=" + dir.resolve("hs_err_pid%p.log"));
        return command;
    }
}
