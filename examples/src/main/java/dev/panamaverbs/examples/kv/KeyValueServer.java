package dev.panamaverbs.examples.kv;

import dev.panamaverbs.examples.kv.KeyValueProtocol.Request;
import dev.panamaverbs.examples.kv.KeyValueProtocol.Status;
import dev.panamaverbs.messaging.MessageChannel;
import dev.panamaverbs.messaging.MessageServer;
import dev.panamaverbs.messaging.MessageType;
import dev.panamaverbs.messaging.MessagingException;
import dev.panamaverbs.messaging.ReceivedMessage;
import java.io.PrintStream;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The key-value store behind a {@link MessageServer}: each accepted client gets a virtual thread
 * that receives its requests ({@link MessageChannel#receive}, which parks on the shared poller),
 * applies them to one map shared by all clients and answers each ({@link MessageChannel#respond}).
 * A client's session ends when its channel fails, which is how a client's disconnect shows.
 */
final class KeyValueServer {
    private final Map<String, byte[]> store = new ConcurrentHashMap<>();
    private final AtomicLong served = new AtomicLong();
    private final AtomicBoolean failed = new AtomicBoolean();
    private final Duration wait;
    private final PrintStream out;

    KeyValueServer(Duration wait, PrintStream out) {
        this.wait = wait;
        this.out = out;
    }

    /**
     * Accepts {@code clients} clients (each within the wait) and serves them all until each left.
     *
     * @return true when every session ended by its client leaving, false when one sat idle past the wait
     */
    boolean serve(MessageServer server, int clients) throws InterruptedException {
        List<Thread> sessions = new ArrayList<>();
        for (int n = 1; n <= clients; n++) {
            MessageChannel channel = server.accept(wait).orElseThrow(
                    () -> new IllegalStateException("no client connected within " + wait.toSeconds() + " s"));
            out.println("server: client " + n + " connected from " + channel.remoteAddress());
            int client = n;
            sessions.add(Thread.ofVirtual().name("kv-session-" + n).start(() -> session(channel, client)));
        }
        for (Thread session : sessions) {
            session.join();
        }
        out.println("server: " + served.get() + " requests served, " + store.size() + " keys stored");
        return !failed.get();
    }

    private void session(MessageChannel channel, int client) {
        long requests = 0;
        try (channel) {
            while (true) {
                ReceivedMessage message;
                try {
                    message = channel.receive(wait);
                } catch (MessagingException left) {
                    out.println("server: client " + client + " left after " + requests + " requests (" + left.getMessage() + ")");
                    return;
                }
                if (message == null) {
                    out.println("server: client " + client + " sent nothing for " + wait.toSeconds() + " s; closing its channel");
                    failed.set(true);
                    return;
                }
                try {
                    if (message.type() == MessageType.REQUEST) {
                        channel.respond(message.correlation(), answer(message.payload()));
                        requests++;
                        served.incrementAndGet();
                    } else {
                        out.println("server: client " + client + " sent a " + message.type() + " message; only requests are served");
                    }
                } finally {
                    message.release();
                }
            }
        }
    }

    /** Applies one request to the store and encodes the response. */
    private MemorySegment answer(MemorySegment payload) {
        Request request;
        try {
            request = KeyValueProtocol.decodeRequest(payload);
        } catch (IllegalArgumentException malformed) {
            return KeyValueProtocol.response(Status.BAD_REQUEST, new byte[0]);
        }
        return switch (request.op()) {
            case PUT -> {
                store.put(request.key(), request.value());
                yield KeyValueProtocol.response(Status.OK, new byte[0]);
            }
            case GET -> {
                byte[] value = store.get(request.key());
                yield value == null
                        ? KeyValueProtocol.response(Status.NOT_FOUND, new byte[0])
                        : KeyValueProtocol.response(Status.OK, value);
            }
            case DELETE -> KeyValueProtocol.response(store.remove(request.key()) == null ? Status.NOT_FOUND : Status.OK, new byte[0]);
        };
    }
}
