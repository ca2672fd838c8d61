package dev.panamaverbs.it.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * One job's folder under {@code <two-host dir>/jobs/}: how host A's tests and host B's
 * {@link PeerAgent} talk, through files on the file system both guests share. Every file is
 * written whole (to a temporary name, then renamed), so a reader never sees half of one.
 * <pre>
 * request        A: the main class, then one argument per line
 * started        B: the peer process started (its pid)
 * output         B: the peer's stdout and stderr
 * values/KEY     the peer: values it publishes (PeerSide.publish)
 * kill           A: stop the peer now (B kills it, then writes exit)
 * exit           B: the peer's exit status
 * </pre>
 */
record PeerJob(Path dir) {
    /** One of the job's files, named as in the table above. */
    private Path file(String name) {
        return dir.resolve(name);
    }

    Path request() {
        return file("request");
    }

    Path started() {
        return file("started");
    }

    Path output() {
        return file("output");
    }

    Path values() {
        return file("values");
    }

    Path value(String key) {
        return values().resolve(key);
    }

    Path kill() {
        return file("kill");
    }

    Path exit() {
        return file("exit");
    }

    /** The recorded exit status, once there is one. */
    OptionalInt exitStatus() {
        return readIfPresent(exit()).map(text -> OptionalInt.of(Integer.parseInt(text.strip()))).orElse(OptionalInt.empty());
    }

    /** The peer's output so far (empty when there is none yet). */
    String outputText() {
        return readIfPresent(output()).orElse("");
    }

    /** The request's lines: main class, arguments. */
    List<String> requestLines() {
        return readIfPresent(request()).map(text -> text.lines().toList()).orElse(List.of());
    }

    static Optional<String> readIfPresent(Path file) {
        try {
            return Optional.of(Files.readString(file, StandardCharsets.UTF_8));
        } catch (java.nio.file.NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + file, e);
        }
    }

    /** Writes {@code file} whole: a temporary file next to it, then a rename. */
    static void writeAtomically(Path file, String text) {
        try {
            Files.createDirectories(file.getParent());
            Path temporary = file.resolveSibling(file.getFileName() + ".tmp");
            Files.writeString(temporary, text, StandardCharsets.UTF_8);
            Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("writing " + file, e);
        }
    }
}
