package dev.panamaverbs.examples.rping;

import dev.panamaverbs.cm.RdmaConnection;
import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;

/**
 * rping's client: connects, then for each ping fills {@code start_buf} with the ping data,
 * advertises it (the server READs it), waits for "go ahead", advertises {@code rdma_buf} (the
 * server WRITEs the data back into it), waits for "go ahead", then with {@code -V} compares the
 * two buffers and with {@code -v} prints {@code ping data: ...}. Disconnects at the end.
 */
record RpingClient(RpingOptions options, PrintStream out, PrintStream err) implements RpingRole {
    /** Runs {@code -C} pings (for ever with 0); returns how many were done. */
    @Override
    public int run() {
        InetSocketAddress server = new InetSocketAddress(options.address(), options.port());
        try (RdmaConnection connection = RdmaConnection.connect(server, RpingConnections.options(options.timeout()));
             Arena arena = Arena.ofConfined()) {
            RpingEndpoint endpoint = new RpingEndpoint(connection.identifier(), connection.protectionDomain(),
                    connection.queuePair(), connection.completionQueue(), options.size(), true, options.timeout(), arena);
            endpoint.postReceive();
            debug("rdma_connect successful to " + connection.remoteAddress());
            int ping = 0;
            for (; options.count() == 0 || ping < options.count(); ping++) {
                pingOnce(endpoint, ping);
            }
            connection.disconnect(options.timeout());
            return ping;
        }
    }

    private void pingOnce(RpingEndpoint endpoint, int ping) {
        MemorySegment start = endpoint.startBuffer().memory();
        MemorySegment echo = endpoint.rdmaBuffer().memory();
        RpingPattern.fill(start, options.size(), ping);
        endpoint.send(endpoint.advertise(endpoint.startBuffer()));
        endpoint.receive("the server's go ahead after its RDMA READ");
        endpoint.send(endpoint.advertise(endpoint.rdmaBuffer()));
        endpoint.receive("the server's go ahead after its RDMA WRITE");
        if (options.validate() && start.asSlice(0, options.size()).mismatch(echo.asSlice(0, options.size())) != -1) {
            err.println("data mismatch!");
            throw new IllegalStateException("data mismatch in ping " + ping);
        }
        if (options.verbose()) {
            out.println("ping data: " + RpingPattern.text(echo, options.size()));
        }
    }
}
