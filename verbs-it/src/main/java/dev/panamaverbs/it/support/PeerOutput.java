package dev.panamaverbs.it.support;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.OptionalLong;

/**
 * What a peer printed so far (stdout and stderr merged, in the order it came), collected from
 * whatever thread reads it, and when its first bytes came: the output side of a {@link PeerProcess}.
 */
public final class PeerOutput {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    /** When the peer's first bytes came (System.nanoTime), 0 before. */
    private volatile long firstAt;

    /** Adds what the peer printed. */
    public void append(byte[] chunk, int offset, int length) {
        if (firstAt == 0) {
            firstAt = System.nanoTime();
        }
        synchronized (bytes) {
            bytes.write(chunk, offset, length);
        }
    }

    /** Adds a line of the harness's own about the peer (not the peer's output: no first-output time). */
    public void note(String line) {
        synchronized (bytes) {
            bytes.writeBytes((line + "\n").getBytes(StandardCharsets.UTF_8));
        }
    }

    /** Everything so far, as UTF-8 text. */
    public String text() {
        synchronized (bytes) {
            return bytes.toString(StandardCharsets.UTF_8);
        }
    }

    /** When the peer's first bytes came ({@link System#nanoTime}), or empty before. */
    public OptionalLong firstAt() {
        long at = firstAt;
        return at == 0 ? OptionalLong.empty() : OptionalLong.of(at);
    }
}
