package dev.panamaverbs.examples.rping;

import dev.panamaverbs.CompletionQueue;
import dev.panamaverbs.cm.ConnectionId;
import dev.panamaverbs.cm.ConnectionOptions;
import dev.panamaverbs.cm.ConnectionRequest;
import dev.panamaverbs.Context;
import dev.panamaverbs.ProtectionDomain;
import dev.panamaverbs.values.QueuePairType;
import dev.panamaverbs.QueuePair;
import dev.panamaverbs.QueuePairOptions;
import dev.panamaverbs.cm.RdmaListener;
import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.net.InetSocketAddress;

/**
 * rping's server: listens, takes one connection request, creates its queue pair and buffers and
 * posts the receive <em>before</em> accepting (as rping does), then serves pings until the
 * client disconnects: receive the client's source advertisement, RDMA READ it, send "go ahead",
 * receive the sink advertisement, RDMA WRITE the data back ({@code strlen + 1} bytes), send "go
 * ahead". {@code -C} is ignored here as in rping: the client decides how many pings there are.
 */
record RpingServer(RpingOptions options, PrintStream out, PrintStream err) implements RpingRole {
    /** Serves one client; returns the number of pings served. */
    @Override
    public int run() {
        ConnectionOptions cm = RpingConnections.options(options.timeout());
        String host = options.address() != null ? options.address() : "0.0.0.0";
        try (RdmaListener listener = RdmaListener.listen(new InetSocketAddress(host, options.port()), cm)) {
            debug("rdma_listen on " + listener.localAddress());
            ConnectionRequest request = listener.awaitRequest(options.timeout()).orElseThrow(() -> new IllegalStateException(
                    "no connection request within " + options.timeout().toSeconds() + " s"));
            ConnectionId id = request.identifier();
            try (Arena arena = Arena.ofConfined()) {
                try {
                    return serve(id, cm, arena);
                } finally {
                    id.channel().close();   // the request's own channel: QP, CQ, PD, MRs and identifier
                }
            }
        }
    }

    private int serve(ConnectionId id, ConnectionOptions cm, Arena arena) {
        Context context = id.context();
        ProtectionDomain pd = context.allocateProtectionDomain();
        CompletionQueue cq = context.createCompletionQueue(RpingConnections.SQ_DEPTH * 2);
        QueuePair qp = id.createQueuePair(pd, QueuePairOptions.builder(QueuePairType.RC, cq)
                .maxSendWorkRequests(RpingConnections.SQ_DEPTH).maxReceiveWorkRequests(RpingConnections.RQ_DEPTH)
                .maxSendSge(1).maxReceiveSge(1).build());
        RpingEndpoint endpoint = new RpingEndpoint(id, pd, qp, cq, options.size(), false, options.timeout(), arena);
        endpoint.postReceive();
        id.accept(cm, options.timeout());
        debug("accepted " + id.remoteAddress());
        int pings = 0;
        try {
            while (true) {
                RpingInfo source = endpoint.receive("the client's source advertisement");
                debug("Received rkey " + Integer.toHexString(source.rkey()) + " addr " + Long.toHexString(source.address())
                        + " len " + source.unsignedSize() + " from peer");
                if (source.unsignedSize() > options.size()) {
                    throw new IllegalStateException("the client's buffer (" + source.unsignedSize()
                            + " bytes) is larger than ours (-S " + options.size() + ")");
                }
                endpoint.read(source, source.size());
                if (options.verbose()) {
                    out.println("server ping data: " + RpingPattern.text(endpoint.rdmaBuffer().memory(), options.size()));
                }
                endpoint.send(RpingInfo.GO_AHEAD);
                RpingInfo sink = endpoint.receive("the client's sink advertisement");
                int length = Math.min(RpingPattern.cStringLength(endpoint.rdmaBuffer().memory(), options.size()) + 1,
                        options.size());
                if (length > sink.unsignedSize()) {
                    throw new IllegalStateException("the client's sink (" + sink.unsignedSize() + " bytes) is smaller than "
                            + length + " bytes");
                }
                endpoint.write(sink, length);
                endpoint.send(RpingInfo.GO_AHEAD);
                pings++;
            }
        } catch (RpingEndpoint.Disconnected e) {
            err.println("server DISCONNECT EVENT...");
            debug(e.getMessage());
            return pings;
        }
    }
}
