package dev.panamaverbs.cm;

import dev.panamaverbs.AddressHandle;
import dev.panamaverbs.values.Errno;
import dev.panamaverbs.SendWorkRequest;
import dev.panamaverbs.values.QueuePairType;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A UD queue pair reached through rdma_cm's {@code RDMA_PS_UDP}: {@link #bind} makes a server
 * whose one UD queue pair answers every resolution request ({@link #answerResolution}), and
 * {@link #connect} resolves such a server: its QPN, Q_Key and an address handle
 * ({@link #peer()}), ready for {@link SendWorkRequest#ud}. The queue pair is in RTS at once
 * (librdmacm moves it there) with rdma_cm's Q_Key; receives need 40 bytes of room for the GRH.
 * {@link #close()} frees the queue pair, CQ, PD, identifier and channel in order.
 *
 * <h2>Replying</h2>
 * A server answers a datagram with an address handle made from its completion
 * ({@link dev.panamaverbs.AddressHandleAttributes#fromCompletion} with {@link #portNumber()}),
 * the completion's source QPN and {@link #qkey()}: every queue pair of rdma_cm's UDP port space
 * has the Q_Key {@link #RDMA_UDP_QKEY}.
 *
 * <p>States: OPEN, then CLOSED. {@link #close()} works from any thread: a thread waiting in
 * {@link #answerResolution} ends promptly with an {@link IllegalStateException} saying the socket
 * was closed.
 */
public final class RdmaDatagramSocket extends CmResources {
    /**
     * {@code RDMA_UDP_QKEY}: the Q_Key librdmacm gives every queue pair of the UDP port space
     * ({@link PortSpace#UDP}), so the Q_Key a datagram to such a queue pair carries.
     */
    public static final int RDMA_UDP_QKEY = 0x01234567;

    /** The states of a datagram socket. */
    enum State { OPEN, CLOSED }

    /** The states {@link #answerResolution}, {@link #qkey()} and {@link #portNumber()} need. */
    static final Set<State> OPEN = EnumSet.of(State.OPEN);

    private final DatagramPeer peer;
    private final ConnectionOptions options;
    private final CmStateMachine<State> state = new CmStateMachine<>(State.OPEN, this::toString);

    private RdmaDatagramSocket(ConnectionId id, Resources resources, DatagramPeer peer, ConnectionOptions options) {
        super(id, true, resources);
        this.peer = peer;
        this.options = options;
    }

    /**
     * A datagram server on {@code local} (an RDMA device's address): {@code rdma_bind_addr},
     * {@code rdma_listen}, and a UD queue pair on the listening identifier.
     * @param local the address and port to bind: an RDMA device's address, or the wildcard address; port 0 picks a free port
     * @param options the connection options (queue sizes, retries, timeouts, private data)
     * @return the datagram server, listening
     * @throws dev.panamaverbs.VerbsException when a verb on the way fails (its name and errno), e.g.
     *         allocating the protection domain, completion queue or queue pair
     * @throws dev.panamaverbs.VerbsUnavailableException when libibverbs or librdmacm is unavailable
     * @throws dev.panamaverbs.VerbsSetupException when {@code /dev/infiniband/rdma_cm} cannot be
     *         opened (the {@code rdma_ucm} kernel module is not loaded, or not permitted; see
     *         {@link RdmaCm#isAvailable()})
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
     * @param remote the peer's address and port (the address of its RDMA device)
     * @param options the connection options (queue sizes, retries, timeouts, private data)
     * @return the datagram client, its {@link #peer()} resolved
     * @throws dev.panamaverbs.VerbsException when a verb on the way fails (its name and errno), e.g.
     *         allocating the protection domain, completion queue or queue pair
     * @throws dev.panamaverbs.VerbsUnavailableException when libibverbs or librdmacm is unavailable
     * @throws dev.panamaverbs.VerbsSetupException when {@code /dev/infiniband/rdma_cm} cannot be
     *         opened (the {@code rdma_ucm} kernel module is not loaded, or not permitted; see
     *         {@link RdmaCm#isAvailable()})
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
     * @param timeout how long to wait at most (not negative)
     * @return who asked (address and private data), or empty when no request came in time
     * @throws IllegalStateException when closed (also by another thread during the wait)
     * @throws ConnectionException when the answer fails
     */
    public Optional<ResolutionRequest> answerResolution(Duration timeout) {
        Objects.requireNonNull(timeout, "rdma_get_request: timeout is null");
        state.require("rdma_get_request", OPEN);
        Optional<ConnectionRequest> request;
        try {
            request = id.awaitRequest(timeout);
        } catch (IllegalStateException e) {
            throw isClosed() ? state.closedWhileWaiting("rdma_get_request", e) : e;
        }
        if (request.isEmpty()) {
            return Optional.empty();
        }
        ConnectionId requester = request.get().identifier();
        try {
            requester.accept(options, options.connectTimeout(), queuePair().number());
        } finally {
            requester.close();
        }
        return Optional.of(new ResolutionRequest(request.get().remoteAddress(), request.get().privateData()));
    }

    /**
     * The Q_Key of this socket's queue pair ({@code ibv_query_qp}), as the {@code int}
     * {@link SendWorkRequest#ud} takes: {@link #RDMA_UDP_QKEY} for rdma_cm's UDP port space.
     *
     * @return the queue pair's Q_Key
     * @throws IllegalStateException when closed
     */
    public int qkey() {
        state.require("ibv_query_qp", OPEN);
        return queuePair().query().qkeyAsInt();
    }

    /**
     * The device port the identifier uses ({@code rdma_cm_id.port_num}): the port for an
     * address handle built from a receive's completion
     * ({@link dev.panamaverbs.AddressHandleAttributes#fromCompletion}).
     *
     * @return the port number, from 1
     * @throws IllegalStateException when closed
     */
    public int portNumber() {
        state.require("portNumber", OPEN);
        return Byte.toUnsignedInt(dev.panamaverbs.ffm.rdmacm.rdma_cm_id.port_num(id.handle()));
    }

    /**
     * True once {@link #close()} has begun (or the identifier was closed directly).
     *
     * @return true once closed
     */
    public boolean isClosed() {
        return state.current() == State.CLOSED || id.isClosed();
    }

    /**
     * Closes the queue pair, completion queue, protection domain, identifier and channel in
     * order. Idempotent, from any thread.
     */
    @Override
    public void close() {
        state.force(State.CLOSED);
        super.close();
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
