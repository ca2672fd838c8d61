package dev.panamaverbs.cm;

import dev.panamaverbs.internal.Undo;
import dev.panamaverbs.CompletionChannel;
import dev.panamaverbs.CompletionQueue;
import dev.panamaverbs.Context;
import dev.panamaverbs.ProtectionDomain;
import dev.panamaverbs.QueuePair;
import dev.panamaverbs.QueuePairOptions;
import dev.panamaverbs.VerbsResource;
import dev.panamaverbs.values.QueuePairType;
import java.net.InetSocketAddress;
import java.util.Objects;
import java.util.function.Function;

/**
 * What {@link RdmaConnection} and {@link RdmaDatagramSocket} share: an rdma_cm identifier with a
 * protection domain, one completion queue for send and receive (or one each,
 * {@link ConnectionOptions#separateCompletionQueues()}) and a queue pair on the device rdma_cm
 * chose. Also the set-up steps both (and {@link RdmaListener}) take.
 */
abstract class CmResources implements AutoCloseable {
    /**
     * The identifier's protection domain, completion queues (the same one twice unless
     * separate) and queue pair, made by {@link #create}.
     */
    record Resources(ProtectionDomain protectionDomain, CompletionQueue sendCompletionQueue,
                     CompletionQueue receiveCompletionQueue, QueuePair queuePair) {
        /**
         * Makes PD, CQ (two when the options ask; on a completion channel of their own when the
         * options ask) and a {@code type} queue pair on {@code id}, sized by {@code options}.
         */
        static Resources create(ConnectionId id, QueuePairType type, ConnectionOptions options) {
            Context context = id.context();
            ProtectionDomain pd = context.allocateProtectionDomain();
            // The channel is the context wrapper's child, as the queues are: closed with the identifier.
            CompletionChannel channel = options.completionChannel() ? context.createCompletionChannel() : null;
            CompletionQueue sendCq = context.createCompletionQueue(options.completionQueueSize(), channel, 0);
            CompletionQueue receiveCq = options.separateCompletionQueues()
                    ? context.createCompletionQueue(options.completionQueueSize(), channel, 0) : sendCq;
            QueuePair qp = id.createQueuePair(pd, QueuePairOptions.builder(type, sendCq, receiveCq)
                    .maxSendWorkRequests(options.maxSendWorkRequests())
                    .maxReceiveWorkRequests(options.maxReceiveWorkRequests())
                    .maxSendSge(options.maxSge()).maxReceiveSge(options.maxSge())
                    .maxInlineData(options.maxInlineData()).build());
            return new Resources(pd, sendCq, receiveCq, qp);
        }
    }

    /** The rdma_cm identifier. */
    final ConnectionId id;
    private final Resources resources;
    /** What {@link #close()} closes: the identifier's channel when it serves the identifier alone, else the identifier. */
    private final VerbsResource closes;

    CmResources(ConnectionId id, boolean ownsChannel, Resources resources) {
        this.id = id;
        this.closes = ownsChannel ? id.channel() : id;
        this.resources = resources;
    }

    /**
     * Closes the queue pair, the completion queue, the protection domain (and what was made in it),
     * the identifier (disconnecting a connected one) and, when it has one of its own, its event
     * channel, in that order. Idempotent.
     */
    @Override
    public void close() {
        closes.close();
    }

    /**
     * Makes a new event channel and an identifier on it in {@code space}, and runs {@code setup}
     * on that identifier; when {@code setup} fails, closes the channel (and so all made on it)
     * and throws the failure.
     */
    static <T> T onNewChannel(PortSpace space, Function<ConnectionId, T> setup) {
        ConnectionEventChannel channel = ConnectionEventChannel.create();
        return Undo.orUndo(() -> setup.apply(channel.createIdentifier(space)), channel::close);
    }

    /**
     * Checks {@code local} and {@code options}, then on a new channel ({@link #onNewChannel}) binds
     * an identifier in {@code space} to {@code local}, listens with the options' backlog and runs
     * {@code then} on it.
     */
    static <T> T listenOnNewChannel(InetSocketAddress local, ConnectionOptions options, PortSpace space,
                                    Function<ConnectionId, T> then) {
        SocketAddresses.check("rdma_bind_addr", local);
        Objects.requireNonNull(options, "rdma_listen: options is null");
        return onNewChannel(space, id -> {
            id.bind(local);
            id.listen(options.backlog());
            return then.apply(id);
        });
    }

    /**
     * Checks {@code remote}, {@code options} and their private data (at most
     * {@code maxPrivateData} bytes), then on a new channel ({@link #onNewChannel}) resolves address
     * and route to {@code remote} for an identifier in {@code space} and runs {@code then} on it.
     */
    static <T> T resolveOnNewChannel(InetSocketAddress remote, ConnectionOptions options, int maxPrivateData,
                                     PortSpace space, Function<ConnectionId, T> then) {
        SocketAddresses.check("rdma_connect", remote);
        Objects.requireNonNull(options, "rdma_connect: options is null");
        ConnectionOptions.checkPrivateData("rdma_connect", options.privateDataUnsafe(), maxPrivateData);
        return onNewChannel(space, id -> {
            id.resolveAddress(remote, options.resolveTimeout());
            id.resolveRoute(options.resolveTimeout());
            return then.apply(id);
        });
    }

    /**
     * The queue pair, in RTS: RC and connected on an {@link RdmaConnection}, UD on a
     * {@link RdmaDatagramSocket}.
     *
     * @return the queue pair
     */
    public QueuePair queuePair() {
        return resources.queuePair();
    }

    /**
     * The completion queue of both send and receive completions.
     *
     * @return the completion queue of both send and receive completions.
     * @throws IllegalStateException when made with {@link ConnectionOptions#separateCompletionQueues()}:
     *         use {@link #sendCompletionQueue()} and {@link #receiveCompletionQueue()}
     */
    public CompletionQueue completionQueue() {
        if (resources.sendCompletionQueue() != resources.receiveCompletionQueue()) {
            throw new IllegalStateException(this + " has separate send and receive completion queues:"
                    + " use sendCompletionQueue() and receiveCompletionQueue()");
        }
        return resources.sendCompletionQueue();
    }

    /**
     * The completion queue of send completions ({@link #completionQueue()} unless made with
     * {@link ConnectionOptions#separateCompletionQueues()}).
     *
     * @return the send completion queue
     */
    public CompletionQueue sendCompletionQueue() {
        return resources.sendCompletionQueue();
    }

    /**
     * The completion queue of receive completions ({@link #completionQueue()} unless made with
     * {@link ConnectionOptions#separateCompletionQueues()}).
     *
     * @return the receive completion queue
     */
    public CompletionQueue receiveCompletionQueue() {
        return resources.receiveCompletionQueue();
    }

    /**
     * The protection domain to register memory in.
     *
     * @return the protection domain to register memory in.
     */
    public ProtectionDomain protectionDomain() {
        return resources.protectionDomain();
    }

    /**
     * The rdma_cm identifier (on a datagram server, the listening one).
     *
     * @return the rdma_cm identifier (on a datagram server, the listening one).
     */
    public ConnectionId identifier() {
        return id;
    }

    /**
     * The local address (on a datagram server, the port chosen when 0 was asked).
     *
     * @return the local address (on a datagram server, the port chosen when 0 was asked).
     */
    public InetSocketAddress localAddress() {
        return id.localAddress();
    }
}
