package dev.panamaverbs.perftest.cm;

import dev.panamaverbs.cm.ConnectionOptions;
import dev.panamaverbs.cm.ConnectionRequest;
import dev.panamaverbs.values.Gid;
import dev.panamaverbs.cm.RdmaConnection;
import dev.panamaverbs.cm.RdmaListener;
import dev.panamaverbs.perftest.wire.KeyMessage;
import dev.panamaverbs.perftest.wire.OobLink;
import dev.panamaverbs.perftest.wire.PeerGoneException;
import java.io.IOException;
import java.time.Duration;

/**
 * The test's own queue pair made and connected by rdma_cm with {@code -R}, as perftest 4.5's
 * {@code create_rdma_cm_connection} does it: a hand shake on the out-of-band link, then the
 * server listens on the same port ({@code -p}, RDMA_PS_TCP, every address) and accepts one
 * request while the client resolves and connects (again while rejected), then a second hand shake.
 * Both hand shakes carry perftest's still-empty key message (all zeros). The key exchanges that
 * follow only tell each side the other's buffer (rkey, address): no RTR/RTS of our own, rdma_cm
 * moved the queue pair to RTS.
 */
public final class CmTestConnection {
    /** perftest's {@code my_dest} before {@code set_up_connection} filled it. */
    static final KeyMessage EMPTY = new KeyMessage(0, 0, 0, 0, 0, 0, Gid.of(new byte[Gid.SIZE]), 0);
    /** How long the end waits for the peer's side of the disconnect. */
    private static final Duration DISCONNECT_WAIT = Duration.ofSeconds(5);

    private CmTestConnection() {}

    /**
     * Connects the test's queue pair: the server ({@code serverHost} null) listens on {@code port}
     * and accepts within {@code timeout}; the client connects to {@code serverHost}:{@code port}.
     * The connection's protection domain, completion queue and queue pair are sized by {@code options}.
     */
    public static RdmaConnection establish(OobLink link, String serverHost, int port, ConnectionOptions options,
                                           Duration timeout) throws IOException {
        if (serverHost == null) {
            try (RdmaListener listener = RdmaListener.listen(CmDial.anyIpv4(port), options)) {
                link.handShake(EMPTY, "the hand shake before the rdma_cm connection of the test");
                ConnectionRequest request = listener.awaitRequest(timeout).orElseThrow(() -> new PeerGoneException(
                        "the perftest client did not connect its test queue pair to rdma_cm port " + port + " within "
                                + timeout.toSeconds() + " s", null));
                return synced(link, request.accept(options));
            }
        }
        link.handShake(EMPTY, "the hand shake before the rdma_cm connection of the test");
        return synced(link, CmDial.dial(CmDial.ipv4(serverHost, port), options, CmOobLink.RETRY_FOR));
    }

    private static RdmaConnection synced(OobLink link, RdmaConnection connection) throws IOException {
        try {
            link.handShake(EMPTY, "the hand shake after the rdma_cm connection of the test");
            return connection;
        } catch (IOException | RuntimeException e) {
            connection.close();
            throw e;
        }
    }

    /**
     * perftest's end ({@code rdma_cm_disconnect_nodes}): {@code rdma_disconnect} and a bounded wait
     * for DISCONNECTED; the peer does the same and waits for ours. Closing follows.
     */
    public static void disconnect(RdmaConnection connection) {
        connection.disconnect(DISCONNECT_WAIT);
    }
}
