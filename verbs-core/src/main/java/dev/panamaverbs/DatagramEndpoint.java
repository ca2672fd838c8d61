package dev.panamaverbs;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * A UD queue pair reached through rdma_cm's {@code RDMA_PS_UDP}: {@link #bind} makes a server
 * whose one UD queue pair answers every resolution request ({@link #answerResolution}), and
 * {@link #connect} resolves such a server: its QPN, Q_Key and an address handle
 * ({@link #peer()}), ready for {@link SendWorkRequest#ud}. The queue pair is in RTS at once
 * (librdmacm moves it there) with rdma_cm's Q_Key; receives need 40 bytes of room for the GRH.
 * {@link #close()} frees the queue pair, CQ, PD, identifier and channel in order.
 */
public final class DatagramEndpoint implements AutoCloseable {
    private final ConnectionEventChannel channel;
    private final ConnectionId id;
    private final ProtectionDomain protectionDomain;
    private final CompletionQueue completionQueue;
    private final QueuePair queuePair;
    private final DatagramPeer peer;
    private final ConnectionOptions options;

    private DatagramEndpoint(ConnectionEventChannel channel, ConnectionId id, ProtectionDomain pd, CompletionQueue cq,
                             QueuePair qp, DatagramPeer peer, ConnectionOptions options) {
        this.channel = channel;
        this.id = id;
        this.protectionDomain = pd;
        this.completionQueue = cq;
        this.queuePair = qp;
        this.peer = peer;
        this.options = options;
    }

    /**
     * A datagram server on {@code local} (an RDMA device's address): {@code rdma_bind_addr},
     * {@code rdma_listen}, and a UD queue pair on the listening identifier.
     * @param local the local
     * @param options the options
     * @return a datagram server on {@code local} (an RDMA device's address): {@code rdma_bind_addr}, {@code rdma_listen}, and a UD queue pair on the listening identifier.
     */
    public static DatagramEndpoint bind(InetSocketAddress local, ConnectionOptions options) {
        SocketAddresses.check("rdma_bind_addr", local);
        Objects.requireNonNull(options, "rdma_listen: options is null");
        ConnectionEventChannel channel = ConnectionEventChannel.create();
        try {
            ConnectionId id = channel.createIdentifier(PortSpace.UDP);
            id.bind(local);
            id.listen(options.backlog());
            return open(channel, id, options, null);
        } catch (RuntimeException e) {
            closeQuietly(channel, e);
            throw e;
        }
    }

    /**
     * Resolves the datagram server at {@code remote}: address, route, a UD queue pair, and
     * {@code rdma_connect} (a service ID resolution, SIDR) whose answer gives {@link #peer()}.
     *
     * @throws ConnectionRejectedException when nothing listens on that port
     * @throws ConnectionException when resolution fails or times out
     * @param remote the remote
     * @param options the options
     * @return resolves the datagram server at {@code remote}: address, route, a UD queue pair, and {@code rdma_connect} (a service ID resolution, SIDR) whose answer gives {@link #peer()}.
     */
    public static DatagramEndpoint connect(InetSocketAddress remote, ConnectionOptions options) {
        SocketAddresses.check("rdma_connect", remote);
        Objects.requireNonNull(options, "rdma_connect: options is null");
        ConnectionOptions.checkPrivateData("rdma_connect", options.privateDataUnsafe(),
                ConnectionOptions.MAX_DATAGRAM_REQUEST_PRIVATE_DATA);
        ConnectionEventChannel channel = ConnectionEventChannel.create();
        try {
            ConnectionId id = channel.createIdentifier(PortSpace.UDP);
            id.resolveAddress(remote, options.resolveTimeout());
            id.resolveRoute(options.resolveTimeout());
            return open(channel, id, options, remote);
        } catch (RuntimeException e) {
            closeQuietly(channel, e);
            throw e;
        }
    }

    private static DatagramEndpoint open(ConnectionEventChannel channel, ConnectionId id, ConnectionOptions options,
                                         InetSocketAddress remote) {
        Context context = id.context();
        ProtectionDomain pd = context.allocateProtectionDomain();
        CompletionQueue cq = context.createCompletionQueue(options.completionQueueSize());
        QueuePair qp = id.createQueuePair(pd, QueuePairOptions.builder(QpType.UD, cq)
                .maxSendWorkRequests(options.maxSendWorkRequests())
                .maxReceiveWorkRequests(options.maxReceiveWorkRequests())
                .maxSendSge(options.maxSge()).maxReceiveSge(options.maxSge())
                .maxInlineData(options.maxInlineData()).build());
        DatagramPeer peer = null;
        if (remote != null) {
            ConnectionEvent answer = id.connect(options, options.connectTimeout());
            DatagramParameters parameters = answer.datagram().filter(p -> p.address() != null).orElseThrow(() ->
                    new ConnectionException("rdma_connect", "to " + SocketAddresses.format(remote), Errno.EPROTO, answer,
                            "the resolution answer carries no address"));
            AddressHandle handle = pd.createAddressHandle(parameters.address());
            peer = new DatagramPeer(parameters.queuePairNumber(), parameters.qkey(), handle);
        }
        return new DatagramEndpoint(channel, id, pd, cq, qp, peer, options);
    }

    private static void closeQuietly(AutoCloseable resource, RuntimeException failure) {
        try {
            resource.close();
        } catch (Exception e) {
            failure.addSuppressed(e);
        }
    }

    /**
     * Server side: waits up to {@code timeout} for a resolution request and answers it with this
     * endpoint's QPN and Q_Key ({@code rdma_accept} on the request's identifier, then closes it).
     *
     * @return the requester's private data (padded by the CM), or empty when none came in time
     * @param timeout the timeout
     */
    public Optional<byte[]> answerResolution(Duration timeout) {
        Optional<ConnectionRequest> request = id.awaitRequest(timeout);
        if (request.isEmpty()) {
            return Optional.empty();
        }
        ConnectionId requester = request.get().identifier();
        try {
            requester.accept(options, options.connectTimeout(), queuePair.number());
        } finally {
            requester.close();
        }
        return Optional.of(request.get().privateData());
    }

    /**
     * Client side: the resolved server (QPN, Q_Key, address handle); empty on a server.
     *
     * @return client side: the resolved server (QPN, Q_Key, address handle); empty on a server.
     */
    public Optional<DatagramPeer> peer() {
        return Optional.ofNullable(peer);
    }

    /**
     * The UD queue pair (RTS).
     *
     * @return the UD queue pair (RTS).
     */
    public QueuePair queuePair() {
        return queuePair;
    }

    /**
     * The completion queue of both send and receive completions.
     *
     * @return the completion queue of both send and receive completions.
     */
    public CompletionQueue completionQueue() {
        return completionQueue;
    }

    /**
     * The protection domain to register memory in.
     *
     * @return the protection domain to register memory in.
     */
    public ProtectionDomain protectionDomain() {
        return protectionDomain;
    }

    /**
     * The rdma_cm identifier (the listening one on a server).
     *
     * @return the rdma_cm identifier (the listening one on a server).
     */
    public ConnectionId identifier() {
        return id;
    }

    /**
     * The local address (a server's port chosen when 0 was asked).
     *
     * @return the local address (a server's port chosen when 0 was asked).
     */
    public InetSocketAddress localAddress() {
        return id.localAddress();
    }

    /** Closes queue pair, address handle, CQ, PD, identifier and channel. Idempotent. */
    @Override
    public void close() {
        channel.close();
    }
}
