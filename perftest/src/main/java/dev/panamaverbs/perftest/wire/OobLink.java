package dev.panamaverbs.perftest.wire;

import java.io.IOException;

/**
 * What perftest's two sides say to each other outside the test: fixed-size steps, the client
 * sending first and the server answering ({@code ctx_xchg_data}, {@code ctx_hand_shake}). Over TCP
 * ({@link OobChannel}) by default; with {@code -R} over an rdma_cm connection of its own
 * ({@code dev.panamaverbs.perftest.cm.CmOobLink}). Every wait is bounded, and a peer that goes
 * away is reported with the step that was under way.
 */
public interface OobLink extends AutoCloseable {
    /**
     * One step: sends {@code mine} and returns the peer's {@code mine.length} bytes, in perftest's
     * order (the client writes then reads, the server reads then writes).
     *
     * @param step what this step is, for the error (e.g. "the version exchange")
     */
    default byte[] exchange(byte[] mine, String step) throws IOException {
        if (isClient()) {
            write(mine, step);
            return read(mine.length, step);
        }
        byte[] theirs = read(mine.length, step);
        write(mine, step);
        return theirs;
    }

    /** True on the client's side of the link. */
    boolean isClient();

    /** Sends {@code data} whole; a peer gone is reported naming {@code step}. */
    void write(byte[] data, String step) throws IOException;

    /** Receives exactly {@code size} bytes, bounded by the link's timeout; a peer gone is reported naming {@code step}. */
    byte[] read(int size, String step) throws IOException;

    /** One key message each way ({@code ctx_hand_shake}), in this link's form of it. */
    KeyMessage handShake(KeyMessage mine, String step) throws IOException;

    /** What {@code ctx_close_connection} does after its hand shake: over TCP "done" and close; over rdma_cm nothing. */
    void finish() throws IOException;

    @Override
    void close() throws IOException;
}
