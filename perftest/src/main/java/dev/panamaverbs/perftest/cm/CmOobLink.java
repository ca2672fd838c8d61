package dev.panamaverbs.perftest.cm;

import dev.panamaverbs.values.AccessFlag;
import dev.panamaverbs.values.CompletionOpcode;
import dev.panamaverbs.Completions;
import dev.panamaverbs.cm.ConnectionOptions;
import dev.panamaverbs.cm.ConnectionRequest;
import dev.panamaverbs.MemoryRegion;
import dev.panamaverbs.cm.RdmaConnection;
import dev.panamaverbs.cm.RdmaListener;
import dev.panamaverbs.ReceiveWorkRequest;
import dev.panamaverbs.SendWorkRequest;
import dev.panamaverbs.values.WorkRequestOpcode;
import dev.panamaverbs.perftest.wire.KeyMessage;
import dev.panamaverbs.perftest.wire.KeyStruct;
import dev.panamaverbs.perftest.wire.OobLink;
import dev.panamaverbs.perftest.wire.PeerGoneException;
import dev.panamaverbs.perftest.wire.ProtocolException;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.EnumSet;

/**
 * perftest's out-of-band link with {@code -R} (its {@code use_rdma_cm}, which {@code -R} turns
 * on): not TCP but an RC connection made by rdma_cm on the same port ({@code -p}, port space
 * RDMA_PS_TCP; {@code rdma_server_connect}, {@code rdma_client_connect}), every step one SEND each
 * way into a receive of {@value KeyStruct#SIZE} bytes, one receive posted at a time and posted
 * again right after each arrival ({@code rdma_write_data}, {@code rdma_read_data}). Values keep
 * their TCP sizes; key messages travel as the C struct ({@link KeyStruct}). No "done" at the end.
 */
public final class CmOobLink implements OobLink {
    private static final int SEND_AT = 64;
    /** How long a client keeps trying while nothing listens yet (the C server prints its banner before listening). */
    static final Duration RETRY_FOR = Duration.ofSeconds(5);

    private final RdmaConnection connection;
    private final boolean client;
    private final Duration timeout;
    private final int gidIndex;
    private final boolean withGid;
    private final MemoryRegion buffer;
    private final Completions completions = Completions.allocate(2);
    private final SendWorkRequest send = SendWorkRequest.allocate(1);
    private final ReceiveWorkRequest receive = ReceiveWorkRequest.allocate(1);
    private int received = -1;
    private boolean sent;

    private CmOobLink(RdmaConnection connection, boolean client, Duration timeout, int gidIndex) {
        this.connection = connection;
        this.client = client;
        this.timeout = timeout;
        this.gidIndex = gidIndex;
        this.withGid = gidIndex >= 0;
        this.buffer = connection.protectionDomain().allocateMemoryRegion(2 * SEND_AT, EnumSet.of(AccessFlag.LOCAL_WRITE));
        receive.wrId(1).sge(0, buffer, 0, KeyStruct.SIZE);
        send.wrId(2).opcode(WorkRequestOpcode.SEND).signaled(true);
        connection.queuePair().postReceive(receive);
    }

    /** The link's connection: one step at a time each way, no READs (perftest's comm QP: SEND only, depths 0). */
    static ConnectionOptions options(Duration timeout) {
        return ConnectionOptions.builder().queueDepth(2, 2).completionQueueSize(4).responderResources(0).initiatorDepth(0)
                .connectTimeout(timeout).build();
    }

    /**
     * The server: listens on {@code port} of every address, accepts one client within
     * {@code timeout} and stops listening (the port is needed again for the test's own connection).
     * {@code gidIndex} is this side's GID index, -1 without GID (as its key messages say).
     */
    public static CmOobLink accept(int port, Duration timeout, int gidIndex) throws IOException {
        try (RdmaListener listener = RdmaListener.listen(CmDial.anyIpv4(port), options(timeout))) {
            ConnectionRequest request = listener.awaitRequest(timeout).orElseThrow(() -> new PeerGoneException(
                    "no client connected to rdma_cm port " + port + " within " + timeout.toSeconds() + " s", null));
            CmOobLink[] link = new CmOobLink[1];
            // The link's receive is posted before rdma_accept: the client may send at once (no RNR retry on iWARP).
            request.accept(options(timeout), connection -> link[0] = new CmOobLink(connection, false, timeout, gidIndex));
            return link[0];
        }
    }

    /** The client: connects to {@code host}'s rdma_cm {@code port}, trying again while nothing listens there yet. */
    public static CmOobLink connect(String host, int port, Duration timeout, int gidIndex) throws IOException {
        InetSocketAddress server = CmDial.ipv4(host, port);
        CmOobLink[] link = new CmOobLink[1];
        // The link's receive is posted before rdma_connect: the server may send at once (no RNR retry on iWARP).
        CmDial.dial(server, options(timeout), RETRY_FOR.compareTo(timeout) < 0 ? RETRY_FOR : timeout,
                connection -> link[0] = new CmOobLink(connection, true, timeout, gidIndex));
        return link[0];
    }

    @Override
    public byte[] exchange(byte[] mine, String step) throws IOException {
        if (mine.length > KeyStruct.SIZE) {
            throw new IllegalArgumentException(step + ": " + mine.length + " bytes do not fit perftest's receive of "
                    + KeyStruct.SIZE);
        }
        return OobLink.super.exchange(mine, step);
    }

    @Override
    public boolean isClient() {
        return client;
    }

    @Override
    public KeyMessage handShake(KeyMessage mine, String step) throws IOException {
        return KeyStruct.decode(exchange(KeyStruct.encode(mine, gidIndex), step), withGid);
    }

    /** Over rdma_cm {@code ctx_close_connection} writes no "done": nothing to do. */
    @Override
    public void finish() {
    }

    @Override
    public void write(byte[] data, String step) throws IOException {
        MemorySegment.copy(MemorySegment.ofArray(data), 0, buffer.memory(), SEND_AT, data.length);
        send.sge(0, buffer, SEND_AT, data.length);
        sent = false;
        connection.queuePair().postSend(send);
        await(true, step);
    }

    @Override
    public byte[] read(int size, String step) throws IOException {
        await(false, step);
        int length = received;
        received = -1;
        if (length != size) {
            throw new ProtocolException("the perftest peer sent " + length + " bytes during " + step + ", not " + size
                    + " (does it run the same test?)");
        }
        byte[] data = buffer.memory().asSlice(0, size).toArray(ValueLayout.JAVA_BYTE);
        connection.queuePair().postReceive(receive);
        return data;
    }

    /**
     * Polls until our SEND completed ({@code forSend}) or a message arrived, bounded by the timeout;
     * watches for a disconnect. The peer's last message and its disconnect travel apart (the data
     * on the queue pair, the disconnect as a CM message), so either may be seen first: a failed
     * completion counts only when what we wait for is not in the same batch, and a disconnect only
     * when nothing arrived in the 100 ms after it was seen.
     */
    private void await(boolean forSend, String step) throws IOException {
        long deadline = System.nanoTime() + timeout.toNanos();
        long nextCheck = System.nanoTime();
        boolean disconnectSeen = false;
        while (forSend ? !sent : received < 0) {
            int n = connection.completionQueue().poll(completions);
            PeerGoneException failed = null;
            for (int i = 0; i < n; i++) {
                if (!completions.isSuccess(i)) {
                    if (failed == null) {
                        failed = new PeerGoneException("the rdma_cm link to the perftest peer failed during " + step + ": "
                                + completions.status(i) + " (the peer went away or refused the test; its own output says why)",
                                null);
                    }
                } else if (completions.opcode(i) == CompletionOpcode.RECV) {
                    received = completions.byteLength(i);
                } else {
                    sent = true;
                }
            }
            if (failed != null && (forSend ? !sent : received < 0)) {
                throw failed;
            }
            if (n == 0) {
                long now = System.nanoTime();
                if (now - deadline > 0) {
                    throw new PeerGoneException("no answer from the perftest peer during " + step + " within "
                            + timeout.toSeconds() + " s (over rdma_cm)", null);
                }
                if (now - nextCheck > 0) {
                    nextCheck = now + 100_000_000L;
                    if (disconnectSeen) {
                        throw new PeerGoneException("the perftest peer disconnected its rdma_cm link during " + step
                                + " (it refused the test or failed; its own output says why)", null);
                    }
                    disconnectSeen = connection.awaitDisconnect(Duration.ofMillis(1));
                }
                Thread.onSpinWait();
            }
        }
    }

    /** Closes the connection (the peer sees it disconnect), its buffer with it. */
    @Override
    public void close() {
        connection.close();
    }
}
