package dev.panamaverbs.it.device;

import static dev.panamaverbs.it.support.RdmaCmSupport.WAIT;
import static dev.panamaverbs.it.support.RdmaCmSupport.anyPort;

import dev.panamaverbs.messaging.ChannelOptions;
import dev.panamaverbs.messaging.MessageChannel;
import dev.panamaverbs.messaging.MessageServer;
import java.net.InetAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * One message channel within one JVM for the messaging device tests: a server listening on
 * {@code ip}, a client connected to it, the server's side of that connection, and virtual
 * threads to send or accept from. Closing it closes the channels (server side, then client; a
 * test that closed one already is fine, close is idempotent), then the threads and the server.
 */
final class ChannelLoop implements AutoCloseable {
    final MessageServer server;
    final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
    MessageChannel client;
    MessageChannel serverSide;

    private ChannelLoop(MessageServer server) {
        this.server = server;
    }

    static ChannelLoop open(InetAddress ip, ChannelOptions serverOptions, ChannelOptions clientOptions) throws Exception {
        ChannelLoop loop = new ChannelLoop(MessageServer.listen(anyPort(ip), serverOptions));
        try {
            CompletableFuture<MessageChannel> accepted = acceptLater(loop.server, loop.threads);
            loop.client = MessageChannel.connect(loop.server.localAddress(), clientOptions);
            loop.serverSide = accepted.get(60, TimeUnit.SECONDS);
            return loop;
        } catch (Exception | Error e) {
            loop.close();
            throw e;
        }
    }

    /** The server's next channel, accepted on one of {@code threads}; fails when no request came. */
    static CompletableFuture<MessageChannel> acceptLater(MessageServer server, ExecutorService threads) {
        return CompletableFuture.supplyAsync(
                () -> server.accept(WAIT).orElseThrow(() -> new AssertionError("no request")), threads);
    }

    @Override
    public void close() {
        try (MessageServer s = server; ExecutorService t = threads; MessageChannel c = client; MessageChannel r = serverSide) {
            // try-with-resources closes r, c, t, s in that order, skipping the nulls
        }
    }
}
