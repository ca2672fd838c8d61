package dev.panamaverbs.benchmarks.messaging;

/**
 * One end of a connection as {@link MessagingCompare} drives it: messages of one fixed size, each
 * stamped with a word ({@link Stamp}), sent and received the same way whatever carries them.
 * An end is used by one thread at a time.
 */
interface Link {
    /** Sends one message of the link's size stamped with {@code word}, waiting for flow control as needed. */
    void send(long word) throws Exception;

    /** Receives the next message, checks its length and stamp ({@link Stamp#check}); {@return its word} */
    long receive() throws Exception;

    /** Waits until every message sent so far has left this end's buffers (its sends completed). */
    void flush() throws Exception;

    /** Unblocks a thread stuck in this end after its peer failed (closing what it waits on). */
    void abort();
}
