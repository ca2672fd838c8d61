package dev.panamaverbs.cm;

import dev.panamaverbs.AddressHandle;
import dev.panamaverbs.values.Errno;
import dev.panamaverbs.SendWorkRequest;
import dev.panamaverbs.values.QueuePairType;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Optional;

/**
 * A UD queue pair reached through rdma_cm's {@code RDMA_PS_UDP}: {@link #bind} makes a server
 * whose one UD queue pair answers every resolution request ({@link #answerResolution}), and
 * {@link #connect} resolves such a server: its QPN, Q_Key and an address handle
 * ({@link #peer()}), ready for {@link SendWorkRequest#ud}. The queue pair is in RTS at once
 * (librdmacm moves it there) with rdma_cm's Q_Key; receives need 40 bytes of room for the GRH.
 * {@link #close()} frees the queue pair, CQ, PD, identifier and channel in order.
 */
public final class RdmaDatagramSocket extends CmResources {
    private final DatagramPeer peer;
    private final ConnectionOptions options;

    private RdmaDatagramSocket(ConnectionId id, Resources resources, DatagramPeer peer, ConnectionOptions options) {
        super(id, true, resources);
        this.peer = peer;
        this.options = options;
    }

    /**
     * A datagram server on {@code local} (an RDMA device's address): {@code rdma_bind_addr},
     * {@code rdma_listen}, and a UD queue pair on the listening identifier.
     * @param local the local
     * @param options the options
     * @return a datagram server on {@code local} (an RDMA device's address): {@code rdma_bind_addr}, {@code rdma_listen}, and a UD queue pair on the listening identifier.
     * @throws dev.panamaverbs.VerbsException when a verb on the way fails (its name and errno), e.g.
     *         allocating the protection domain, completion queue or queue pair
     * @throws dev.panamaverbs.VerbsUnavailableException when libibverbs or librdmacm is unavailable
     */
    public static RdmaDatagramSocket bind(InetSocketAddress local, ConnectionOptions options) {
        return listenOnNewChannel(local, options, PortSpace.UDP, id -> open(id, options, null));
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
     * @throws dev.panamaverbs.VerbsException when a verb on the way fails (its name and errno), e.g.
     *         allocating the protection domain, completion queue or queue pair
     * @throws dev.panamaverbs.VerbsUnavailableException when libibverbs or librdmacm is unavailable
     */
    public static RdmaDatagramSocket connect(InetSocketAddress remote, ConnectionOptions options) {
        return resolveOnNewChannel(remote, options, ConnectionOptions.MAX_DATAGRAM_REQUEST_PRIVATE_DATA, PortSpace.UDP,
                id -> open(id, options, remote));
    }

    private static RdmaDatagramSocket open(ConnectionId id, ConnectionOptions options, InetSocketAddress remote) {
        Resources resources = Resources.create(id, QueuePairType.UD, options);
        DatagramPeer peer = null;
        if (remote != null) {
            ConnectionEvent answer = id.connect(options, options.connectTimeout());
            DatagramParameters parameters = answer.datagram().filter(p -> p.address() != null).orElseThrow(() ->
                    new ConnectionException("rdma_connect", "to " + SocketAddresses.format(remote), Errno.EPROTO, answer,
                            "the resolution answer carries no address"));
            AddressHandle handle = resources.protectionDomain().createAddressHandle(parameters.address());
            peer = new DatagramPeer(parameters.queuePairNumber(), parameters.qkey(), handle);
        }
        return new RdmaDatagramSocket(id, resources, peer, options);
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
            requester.accept(options, options.connectTimeout(), queuePair().number());
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
}
