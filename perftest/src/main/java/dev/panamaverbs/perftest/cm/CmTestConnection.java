package dev.panamaverbs.perftest.cm;

import dev.panamaverbs.AddressHandle;
import dev.panamaverbs.CompletionChannel;
import dev.panamaverbs.CompletionQueue;
import dev.panamaverbs.Context;
import dev.panamaverbs.MemoryRegion;
import dev.panamaverbs.ProtectionDomain;
import dev.panamaverbs.QueuePair;
import dev.panamaverbs.QueuePairOptions;
import dev.panamaverbs.cm.ConnectionEvent;
import dev.panamaverbs.cm.ConnectionEventChannel;
import dev.panamaverbs.cm.ConnectionId;
import dev.panamaverbs.cm.ConnectionOptions;
import dev.panamaverbs.cm.ConnectionRequest;
import dev.panamaverbs.cm.DatagramParameters;
import dev.panamaverbs.cm.PortSpace;
import dev.panamaverbs.perftest.wire.KeyMessage;
import dev.panamaverbs.perftest.wire.OobLink;
import dev.panamaverbs.perftest.wire.PeerGoneException;
import dev.panamaverbs.values.AccessFlag;
import dev.panamaverbs.values.Gid;
import dev.panamaverbs.values.QueuePairType;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;

/**
 * The test's queue pairs made and connected by rdma_cm with {@code -R}, as perftest 4.5's
 * {@code create_rdma_cm_connection} makes them: a hand shake on the out-of-band link, then the
 * server listens on the same port ({@code -p}, every address; RDMA_PS_TCP, on UD RDMA_PS_UDP)
 * and answers {@code -q} requests while the client makes one connection per queue pair (again
 * while rejected), then a second hand shake. Both hand shakes carry perftest's still-empty key
 * message (all zeros). One protection domain and completion queue serve every queue pair, made on
 * the device rdma_cm chose; rdma_cm moves the queue pairs to RTS, so there is no RTR/RTS of our own.
 *
 * <p>On UD a "connection" is a service ID resolution: the client learns the server's QPN and
 * Q_Key and an address handle from the answer. Where the server sends too (latency tests, and
 * bandwidth with {@code -b}) the client then sends one SEND with immediate of 4 bytes whose
 * immediate is its QPN; the server posted a receive for it before answering, and makes its address
 * handle from that datagram ({@link CmDatagramAddress}).
 */
public final class CmTestConnection implements AutoCloseable {
    /** perftest's {@code my_dest} before {@code set_up_connection} filled it. */
    static final KeyMessage EMPTY = new KeyMessage(0, 0, 0, 0, 0, 0, Gid.of(new byte[Gid.SIZE]), 0);
    /** How long the end waits for the peers' side of the disconnects. */
    private static final Duration DISCONNECT_WAIT = Duration.ofSeconds(5);

    /**
     * What to connect.
     *
     * @param queuePairs  {@code -q}: one connection each
     * @param datagram    UD (RDMA_PS_UDP) rather than RC
     * @param sendsQpn    on UD, whether the client sends its QPN in a datagram (perftest: latency tests and {@code -b})
     * @param ibPort      the port datagrams arrive on, for the server's address handle
     * @param options     queue sizes (the completion queue's for all queue pairs), depths, retries, completion channel
     * @param completionVector the completion queue's vector ({@code -X}, with a completion channel)
     */
    public record Plan(int queuePairs, boolean datagram, boolean sendsQpn, int ibPort, ConnectionOptions options,
                       int completionVector) {
    }

    private final Plan plan;
    private final Duration timeout;
    private final ConnectionEventChannel channel = ConnectionEventChannel.create();
    private final List<ConnectionId> ids = new ArrayList<>();
    private final List<QueuePair> qps = new ArrayList<>();
    private ProtectionDomain pd;
    private CompletionQueue cq;
    private MemoryRegion scratch;
    private AddressHandle addressHandle;

    private CmTestConnection(Plan plan, Duration timeout) {
        this.plan = plan;
        this.timeout = timeout;
    }

    /**
     * Connects the test's queue pairs: the server ({@code serverHost} null) listens on {@code port}
     * and answers each request within {@code timeout}; the client connects to {@code serverHost}:{@code port}.
     */
    public static CmTestConnection establish(OobLink link, String serverHost, int port, Plan plan, Duration timeout)
            throws IOException {
        CmTestConnection made = new CmTestConnection(plan, timeout);
        try {
            if (serverHost == null) {
                made.accept(link, port);
            } else {
                link.handShake(EMPTY, "the hand shake before the rdma_cm connections of the test");
                made.connect(CmDial.ipv4(serverHost, port));
            }
            link.handShake(EMPTY, "the hand shake after the rdma_cm connections of the test");
            return made;
        } catch (IOException | RuntimeException e) {
            made.close();
            throw e;
        }
    }

    private PortSpace space() {
        return plan.datagram() ? PortSpace.UDP : PortSpace.TCP;
    }

    /** The server: listens (backlog {@code -q}, as perftest), then answers {@code -q} requests in their order. */
    private void accept(OobLink link, int port) throws IOException {
        ConnectionId listener = channel.createIdentifier(space());
        try {
            listener.bind(CmDial.anyIpv4(port));
            listener.listen(plan.queuePairs());
            link.handShake(EMPTY, "the hand shake before the rdma_cm connections of the test");
            for (int i = 0; i < plan.queuePairs(); i++) {
                int index = i;
                ConnectionRequest request = listener.awaitRequest(timeout).orElseThrow(() -> new PeerGoneException(
                        "the perftest client did not connect its test queue pair " + index + " to rdma_cm port " + port
                                + " within " + timeout.toSeconds() + " s", null));
                ConnectionId id = request.identifier();
                ids.add(id);
                QueuePair qp = createQueuePair(id);
                boolean qpnDatagram = plan.datagram() && plan.sendsQpn();
                if (qpnDatagram) {
                    CmDatagramAddress.postReceive(qp, scratch);
                }
                id.accept(plan.options(), timeout);
                if (qpnDatagram) {
                    AddressHandle handle = CmDatagramAddress.await(cq, pd, scratch, plan.ibPort(), timeout);
                    addressHandle = addressHandle == null ? handle : addressHandle;
                }
                qps.add(qp);
            }
        } finally {
            // perftest destroys its listening identifier once every queue pair is connected
            listener.close();
        }
    }

    /** The client: one connection per queue pair, each tried again while the server does not listen yet. */
    private void connect(InetSocketAddress server) throws IOException {
        Duration retryFor = CmOobLink.RETRY_FOR;
        for (int i = 0; i < plan.queuePairs(); i++) {
            ids.add(CmDial.retrying(server, retryFor, () -> connectOne(server)));
        }
    }

    private ConnectionId connectOne(InetSocketAddress server) throws IOException {
        ConnectionId id = channel.createIdentifier(space());
        boolean first = pd == null;
        try {
            id.resolveAddress(server, plan.options().resolveTimeout());
            id.resolveRoute(plan.options().resolveTimeout());
            QueuePair qp = createQueuePair(id);
            ConnectionEvent answer = id.connect(plan.options(), timeout);
            if (plan.datagram()) {
                DatagramParameters peer = answer.datagram().orElseThrow(() -> new IllegalStateException(
                        "rdma_connect to " + server + ": the resolution answer carries no queue pair"));
                AddressHandle handle = pd.createAddressHandle(peer.address());
                if (plan.sendsQpn()) {
                    CmDatagramAddress.sendQpn(qp, cq, scratch, handle, peer, timeout);
                }
                addressHandle = addressHandle == null ? handle : addressHandle;
            }
            qps.add(qp);
            return id;
        } catch (RuntimeException | IOException e) {
            id.close();
            if (first) {
                // the first identifier's device context held them: closed with it
                pd = null;
                cq = null;
                scratch = null;
            }
            throw e;
        }
    }

    /** The queue pair on {@code id}; the first one also makes the protection domain and completion queue on its device. */
    private QueuePair createQueuePair(ConnectionId id) {
        ConnectionOptions options = plan.options();
        if (pd == null) {
            Context context = id.context();
            pd = context.allocateProtectionDomain();
            // -e: the queue signals a channel of its own (perftest's ibv_create_comp_channel)
            CompletionChannel events = options.completionChannel() ? context.createCompletionChannel() : null;
            cq = context.createCompletionQueue(options.completionQueueSize(), events, events == null ? 0 : plan.completionVector());
            scratch = pd.allocateMemoryRegion(CmDatagramAddress.SCRATCH, EnumSet.of(AccessFlag.LOCAL_WRITE));
        }
        QueuePairOptions qp = QueuePairOptions.builder(plan.datagram() ? QueuePairType.UD : QueuePairType.RC, cq)
                .maxSendWorkRequests(options.maxSendWorkRequests()).maxReceiveWorkRequests(options.maxReceiveWorkRequests())
                .maxSendSge(options.maxSge()).maxReceiveSge(options.maxSge()).maxInlineData(options.maxInlineData()).build();
        return id.createQueuePair(pd, qp);
    }

    /** The protection domain of every queue pair. */
    public ProtectionDomain protectionDomain() {
        return pd;
    }

    /** The completion queue of every queue pair, send and receive. */
    public CompletionQueue completionQueue() {
        return cq;
    }

    /** The queue pairs, in the order they were connected (perftest's order of its key messages). */
    public QueuePair[] queuePairs() {
        return qps.toArray(QueuePair[]::new);
    }

    /**
     * On UD the address handle to the peer: the client's from the resolution answer, the server's
     * from the client's QPN datagram; null on RC and on a UD server that was sent none.
     */
    public AddressHandle addressHandle() {
        return addressHandle;
    }

    /**
     * perftest's end ({@code rdma_cm_disconnect_nodes}): {@code rdma_disconnect} on every
     * connection, then a bounded wait for their DISCONNECTED; the peer does the same and waits for
     * ours. Nothing on UD (perftest skips it there). Closing follows.
     */
    public void disconnect() {
        if (plan.datagram()) {
            return;
        }
        for (ConnectionId id : ids) {
            id.disconnect(Duration.ZERO); // the waits are below, one deadline for all
        }
        long deadline = System.nanoTime() + DISCONNECT_WAIT.toNanos();
        for (ConnectionId id : ids) {
            id.awaitDisconnect(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
        }
    }

    /** Closes the queue pairs' identifiers, the last made first (the first one's device context holds the queues), and the channel. */
    @Override
    public void close() {
        for (int i = ids.size() - 1; i >= 0; i--) {
            ids.get(i).close();
        }
        channel.close();
    }
}
