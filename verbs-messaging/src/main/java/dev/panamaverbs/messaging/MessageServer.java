package dev.panamaverbs.messaging;

import dev.panamaverbs.cm.ConnectionOptions;
import dev.panamaverbs.cm.ConnectionRequest;
import dev.panamaverbs.cm.RdmaListener;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * Listens for {@link MessageChannel#connect} on an address (rdma_cm {@code rdma_listen}) and
 * accepts each request as a channel: the client's handshake is checked (a stranger is rejected
 * with the reason in the reject's private data), the receive buffers are posted and the window
 * advertised in the accept's private data. Several threads may accept at once.
 */
public final class MessageServer implements AutoCloseable {
    private final RdmaListener listener;
    private final ChannelOptions options;
    private final SharedReceivePool pool;

    /** Listens ({@code rdma_listen}) for channels made with {@code options}, on {@code pool} unless null. */
    private MessageServer(InetSocketAddress local, ChannelOptions options, SharedReceivePool pool) {
        this.options = Objects.requireNonNull(options, "message server: options is null");
        this.pool = pool;
        this.listener = RdmaListener.listen(local, ConnectionOptions.defaults());
    }

    /**
     * Listens on {@code local} (port 0: one the kernel picks, see {@link #localAddress()}).
     *
     * @param local the address of an RDMA device (rdma_cm binds to it)
     * @param options the options of every channel accepted
     * @return the listening server
     * @throws dev.panamaverbs.VerbsException when {@code rdma_bind_addr} or {@code rdma_listen} fails
     */
    public static MessageServer listen(InetSocketAddress local, ChannelOptions options) {
        return new MessageServer(local, options, null);
    }

    /**
     * {@link #listen(InetSocketAddress, ChannelOptions)}, every channel accepted taking its receive
     * buffers from {@code pool}'s shared receive queue: a request that finds too few free buffers
     * fails its {@link #accept} (the client sees its connect time out or fail).
     *
     * @param local the address of an RDMA device (rdma_cm binds to it), the pool's device
     * @param options the options of every channel accepted; their buffer size must be the pool's
     * @param pool the pool the channels share
     * @return the listening server
     * @throws IllegalArgumentException when the options' buffer size is not the pool's
     * @throws dev.panamaverbs.VerbsException when {@code rdma_bind_addr} or {@code rdma_listen} fails
     */
    public static MessageServer listen(InetSocketAddress local, ChannelOptions options, SharedReceivePool pool) {
        Objects.requireNonNull(options, "message server: options is null");
        Objects.requireNonNull(pool, "message server: pool is null");
        if (options.bufferSize() != pool.bufferSize()) {
            throw new IllegalArgumentException("message server: the pool's buffers are " + pool.bufferSize()
                    + " bytes, the options ask " + options.bufferSize());
        }
        return new MessageServer(local, options, pool);
    }

    /** {@return the address and port it listens on} */
    public InetSocketAddress localAddress() {
        return listener.localAddress();
    }

    /**
     * The next client as a connected channel, waiting up to {@code timeout} for its request.
     *
     * @param timeout how long to wait for a request
     * @return the channel, or empty when no request came in time
     * @throws MessagingException when the request is not a channel's (it was rejected)
     * @throws dev.panamaverbs.VerbsException when accepting fails (a verb's name and errno)
     */
    public Optional<MessageChannel> accept(Duration timeout) {
        Optional<ConnectionRequest> request = listener.awaitRequest(timeout);
        return request.map(r -> MessageChannel.accept(r, options, pool));
    }

    /** {@return the options of the channels it accepts} */
    public ChannelOptions options() {
        return options;
    }

    /** Stops listening; channels accepted before live on. Idempotent. */
    @Override
    public void close() {
        listener.close();
    }

    @Override
    public String toString() {
        return "MessageServer[" + listener + "]";
    }
}
