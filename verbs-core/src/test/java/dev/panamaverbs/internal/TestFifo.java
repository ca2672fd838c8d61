package dev.panamaverbs.internal;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * A named pipe opened read-write in this JVM, and its fd number: a real file descriptor that
 * {@code poll(2)} reports readable once {@link #makeReadable()} wrote to it, for testing the fd
 * waits without a device and without native code in the tests (the fd is found in
 * {@code /proc/self/fd}).
 *
 * @param directory the temporary directory holding the pipe
 * @param path the pipe
 * @param file the pipe opened read-write
 * @param fd the fd number of {@code file}
 */
public record TestFifo(Path directory, Path path, RandomAccessFile file, int fd) implements AutoCloseable {
    /** mkfifo in a new temporary directory, opened read-write (which does not block on Linux). */
    public static TestFifo create() throws IOException, InterruptedException {
        Path directory = Files.createTempDirectory("verbs-fifo");
        Path path = directory.resolve("events").toAbsolutePath();
        Process mkfifo = new ProcessBuilder("mkfifo", path.toString()).redirectErrorStream(true).start();
        if (mkfifo.waitFor() != 0) {
            throw new IOException("mkfifo " + path + " failed: " + new String(mkfifo.getInputStream().readAllBytes()));
        }
        RandomAccessFile file = new RandomAccessFile(path.toFile(), "rw");
        Path real = path.toRealPath();
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            int fd = fds.filter(link -> {
                try {
                    return Files.readSymbolicLink(link).equals(real);
                } catch (IOException gone) {
                    return false; // the fd of the listing itself, closed meanwhile
                }
            }).mapToInt(link -> Integer.parseInt(link.getFileName().toString())).findFirst()
                    .orElseThrow(() -> new IOException("no fd of " + real + " in /proc/self/fd"));
            return new TestFifo(directory, path, file, fd);
        } catch (IOException | RuntimeException e) {
            file.close();
            throw e;
        }
    }

    /** Writes one byte: the fd becomes readable. */
    public void makeReadable() throws IOException {
        file.write(1);
    }

    @Override
    public void close() throws IOException {
        file.close();
        Files.deleteIfExists(path);
        Files.deleteIfExists(directory);
    }
}
