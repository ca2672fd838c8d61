package dev.panamaverbs.examples.kv;

import dev.panamaverbs.examples.kv.KeyValueProtocol.Op;
import dev.panamaverbs.examples.kv.KeyValueProtocol.Response;
import dev.panamaverbs.messaging.MessageChannel;
import dev.panamaverbs.messaging.ReceivedMessage;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * A client of the key-value service on one {@link MessageChannel}: each call sends one request
 * ({@link MessageChannel#request}) and returns the future of its decoded response, so a caller
 * may keep several in flight. The response message is released as soon as it is decoded.
 */
final class KeyValueClient {
    private final MessageChannel channel;
    private final Duration timeout;

    KeyValueClient(MessageChannel channel, Duration timeout) {
        this.channel = channel;
        this.timeout = timeout;
    }

    CompletableFuture<Response> put(String key, byte[] value) {
        return call(Op.PUT, key, value);
    }

    CompletableFuture<Response> get(String key) {
        return call(Op.GET, key, new byte[0]);
    }

    CompletableFuture<Response> delete(String key) {
        return call(Op.DELETE, key, new byte[0]);
    }

    /** The largest value a PUT of {@code key} can carry in one message. */
    int maxValueBytes(String key) {
        return channel.maxMessageSize() - KeyValueProtocol.REQUEST_HEADER - key.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
    }

    private CompletableFuture<Response> call(Op op, String key, byte[] value) {
        return channel.request(KeyValueProtocol.request(op, key, value), timeout).thenApply(KeyValueClient::decode);
    }

    private static Response decode(ReceivedMessage message) {
        try {
            return KeyValueProtocol.decodeResponse(message.payload());
        } finally {
            message.release();
        }
    }
}
