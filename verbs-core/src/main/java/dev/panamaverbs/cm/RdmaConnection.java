package dev.panamaverbs.cm;

import dev.panamaverbs.internal.CoreAccess;
import dev.panamaverbs.internal.Undo;
import dev.panamaverbs.CompletionQueue;
import dev.panamaverbs.Context;
import dev.panamaverbs.MemoryRegion;
import dev.panamaverbs.QueuePair;
import dev.panamaverbs.VerbsResource;
import dev.panamaverbs.VerbsUnavailableException;
import dev.panamaverbs.values.AccessFlag;
import dev.panamaverbs.values.QueuePairType;
import java.net.InetSocketAddress;
import java.time.Duration;

/**
 * A connected RC queue pair made by rdma_cm, ready to post: {@link #connect} on the client,
 * {@link RdmaListener#accept} on the server. Holds the identifier, a protection domain, one
 * completion queue (send and receive) and the queue pair, all on the device rdma_cm chose;
 * register memory with {@link #protectionDomain()} and use the whole data-path API
 * ({@link QueuePair#postSend}, {@link QueuePair#postReceive}, {@link CompletionQueue#poll}).
 *
 * <pre>{@code
 * try (RdmaConnection connection = RdmaConnection.connect(new InetSocketAddress("10.0.2.15", 7471),
 *         ConnectionOptions.defaults())) {
 *     MemoryRegion mr = connection.protectionDomain().allocateMemoryRegion(4096, EnumSet.of(AccessFlag.LOCAL_WRITE));
 *     connection.queuePair().postSend(...);
 * }   // closes queue pair, CQ, PD, identifier (the peer sees DISCONNECTED) and channel, in order
 * }</pre>
 *
 * {@link #close()} frees every kernel object; the peer is disconnected by it. A dead peer shows
 * as work requests completing with {@code RETRY_EXC_ERR} and DISCONNECTED after about
 * (retry count + 1) ACK timeouts ({@link ConnectionOptions}).
 */
public final class RdmaConnection extends CmResources {
    private final ConnectionEvent established;

    private RdmaConnection(ConnectionId id, boolean ownsChannel, Resources resources, ConnectionEvent established) {
        super(id, ownsChannel, resources);
        this.established = established;
    }

    /**
     * Connects to {@code remote}: a new event channel and identifier, address and route
     * resolution ({@link ConnectionOptions#resolveTimeout()} each), protection domain, completion
     * queue and RC queue pair, {@code rdma_connect} and ESTABLISHED
     * ({@link ConnectionOptions#connectTimeout()}). On any failure everything made is closed.
     *
     * @throws ConnectionRejectedException when rejected, or nothing listens on that port
     * @throws ConnectionException naming {@code remote} when resolution fails or times out, the
     *         peer is unreachable, or no answer came in time
     * @throws VerbsUnavailableException when libibverbs or librdmacm is missing
     * @param remote the remote
     * @param options the options
     * @return connects to {@code remote}: a new event channel and identifier, address and route resolution ({@link ConnectionOptions#resolveTimeout()} each), protection domain, completion queue and RC queue pair, {@code rdma_connect} and ESTABLISHED ({@link ConnectionOptions#connectTimeout()}).
     * @throws dev.panamaverbs.VerbsException when a verb on the way fails (its name and errno), e.g.
     *         allocating the protection domain, completion queue or queue pair
     */
    public static RdmaConnection connect(InetSocketAddress remote, ConnectionOptions options) {
        return resolveOnNewChannel(remote, options, ConnectionOptions.MAX_CONNECT_PRIVATE_DATA, PortSpace.TCP,
                id -> establish(id, options, true));
    }

    /**
     * Makes PD, CQ and QP on {@code id}, then connects ({@code active}) or accepts. Closes the
     * identifier (and its channel when it owns one of its own) on failure.
     */
    static RdmaConnection establish(ConnectionId id, ConnectionOptions options, boolean active) {
        return Undo.orUndo(() -> {
            Resources resources = Resources.create(id, QueuePairType.RC, options);
            ConnectionEvent established;
            if (active) {
                established = id.connect(options, options.connectTimeout());
            } else {
                id.accept(options, options.connectTimeout());
                established = null;
            }
            return new RdmaConnection(id, ownsItsChannel(id), resources, established);
        }, () -> closeIdentifier(id));
    }

    /** Whether {@code id} is the only identifier of its channel's tree that we made for it. */
    private static boolean ownsItsChannel(ConnectionId id) {
        return CoreAccess.get().liveDependents(id.channel()).size() == 1;
    }

    /** Closes {@code id}, and its channel too when the channel serves only it. */
    static void closeIdentifier(ConnectionId id) {
        if (ownsItsChannel(id)) {
            id.channel().close();
        } else {
            id.close();
        }
    }


    /**
     * The device context rdma_cm chose (librdmacm's; see {@link ConnectionId#context()}).
     *
     * @return the device context rdma_cm chose (librdmacm's; see {@link ConnectionId#context()}).
     */
    public Context context() {
        return id.context();
    }


    /**
     * The peer's address.
     *
     * @return the peer's address.
     */
    public InetSocketAddress remoteAddress() {
        return id.remoteAddress();
    }


    /**
     * True once closed.
     *
     * @return true once closed.
     */
    public boolean isClosed() {
        return id.isClosed();
    }

    /**
     * The private data the server sent with its accept (client side; padded by the CM), else empty.
     *
     * @return the private data the server sent with its accept (client side; padded by the CM), else empty.
     */
    public byte[] acceptPrivateData() {
        return established != null ? established.privateData() : new byte[0];
    }

    /**
     * {@code rdma_disconnect} and wait up to {@code timeout} for DISCONNECTED: the queue pair goes
     * to ERROR (outstanding and later requests complete with a flush error), the peer sees
     * DISCONNECTED. Close afterwards.
     * @param timeout the timeout
     * @return {@code rdma_disconnect} and wait up to {@code timeout} for DISCONNECTED: the queue pair goes to ERROR (outstanding and later requests complete with a flush error), the peer sees DISCONNECTED.
     */
    public boolean disconnect(Duration timeout) {
        return id.disconnect(timeout);
    }

    /**
     * Waits up to {@code timeout} for the peer to disconnect (or to be declared dead); true once disconnected.
     *
     * @param timeout the timeout
     * @return waits up to {@code timeout} for the peer to disconnect (or to be declared dead); true once disconnected.
     */
    public boolean awaitDisconnect(Duration timeout) {
        return id.awaitDisconnect(timeout);
    }


    @Override
    public String toString() {
        return "RdmaConnection[" + id + ", " + queuePair() + "]";
    }
}
