package dev.panamaverbs.benchmarks.messaging;

import dev.panamaverbs.MemoryRegion;
import dev.panamaverbs.cm.ConnectionOptions;
import dev.panamaverbs.cm.RdmaConnection;
import dev.panamaverbs.cm.RdmaListener;
import dev.panamaverbs.values.AccessFlag;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.EnumSet;

/**
 * One end of the plain verbs loop across two hosts: an RC connection through rdma_cm
 * ({@link RdmaListener} on host B, {@link RdmaConnection#connect} on host A), a buffer registered
 * on its protection domain and a {@link VerbsLink} over its queue pair and completion queue. One
 * connection per case: the link's posted receives have the case's size.
 *
 * @param connection the connection
 * @param buffer     its registered buffer, the link's slots
 * @param link       the loop
 */
record VerbsEnd(RdmaConnection connection, MemoryRegion buffer, VerbsLink link) implements AutoCloseable {
    /** Queue depths for the largest case (16 sends in flight, 64 receives posted), for listener and connect alike. */
    static final ConnectionOptions OPTIONS = ConnectionOptions.builder().queueDepth(16, 64).completionQueueSize(80).build();

    /** Accepts the next connection on {@code listener}, its receives posted before {@code rdma_accept}. */
    static VerbsEnd accept(RdmaListener listener, MessagingCase c, Duration timeout) {
        VerbsEnd[] end = new VerbsEnd[1];
        listener.accept(timeout, connection -> end[0] = over(connection, c));
        return end[0];
    }

    /** Connects to host B's listener at {@code remote}. */
    static VerbsEnd connect(InetSocketAddress remote, MessagingCase c) {
        return over(RdmaConnection.connect(remote, OPTIONS), c);
    }

    private static VerbsEnd over(RdmaConnection connection, MessagingCase c) {
        MemoryRegion buffer = connection.protectionDomain().allocateMemoryRegion(
                VerbsLink.bufferSize(c.size(), c.sends(), c.receives()), EnumSet.of(AccessFlag.LOCAL_WRITE));
        return new VerbsEnd(connection, buffer, new VerbsLink(connection.queuePair(), connection.completionQueue(), buffer,
                c.size(), c.sends(), c.receives()));
    }

    @Override
    public void close() {
        try (RdmaConnection c = connection; MemoryRegion b = buffer) {
            // the buffer first, then the connection (its queue pair and protection domain)
        }
    }
}
