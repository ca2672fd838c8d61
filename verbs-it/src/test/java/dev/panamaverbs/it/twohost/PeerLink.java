package dev.panamaverbs.it.twohost;

import dev.panamaverbs.Context;
import dev.panamaverbs.cm.EndpointExchange;
import dev.panamaverbs.cm.EndpointInfo;
import dev.panamaverbs.values.GidEntry;
import dev.panamaverbs.QueuePair;
import dev.panamaverbs.it.support.Peer;
import dev.panamaverbs.it.support.PeerSide;
import dev.panamaverbs.testkit.TestDevice;
import dev.panamaverbs.it.support.TwoHosts;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;

/**
 * A queue pair connected to the other host's through the endpoint exchange, and the TCP
 * connection that carried it, which then carries the test's {@link Control} messages.
 *
 * @param socket  the TCP connection
 * @param control the control channel on it
 * @param theirs  the other side's endpoint
 */
record PeerLink(Socket socket, Control control, EndpointInfo theirs) implements AutoCloseable {
    private static final Duration EXCHANGE_TIMEOUT = Duration.ofSeconds(60);
    /**
     * ACK timeout 18 (about 1 s): the one-sided streams keep two emulated (TCG) hosts busy for a
     * minute, where 67 ms with 6 retries once ended a run with RETRY_EXC_ERR after 5,358 puts.
     */
    static final int ACK_TIMEOUT = 18;

    /** {@code qp}'s endpoint on the test device: its number, {@code psn}, the device's GID and the port's MTU. */
    static EndpointInfo endpoint(QueuePair qp, TestDevice device, int psn) {
        Context context = qp.protectionDomain().context();
        GidEntry gid = context.queryGid(device.port(), device.gidIndex()).orElseThrow();
        return EndpointInfo.of(qp, psn, gid.gid(), context.queryPort(device.port()).activeMtu());
    }

    /** Host A: connects to {@code peer} (which published its "port"), exchanges, connects {@code qp}, awaits "rts". */
    static PeerLink connect(TwoHosts hosts, Peer peer, QueuePair qp, EndpointInfo mine) throws IOException {
        int port = peer.awaitInt("port", TwoHosts.PEER_START_TIMEOUT);
        Socket socket = EndpointExchange.connectSocket(new InetSocketAddress(hosts.peerAddress(), port), EXCHANGE_TIMEOUT);
        try {
            EndpointInfo theirs = EndpointExchange.exchange(socket, mine, EXCHANGE_TIMEOUT);
            RcConnection.connect(qp, hosts.device(), mine, theirs, ACK_TIMEOUT);
            Control control = new Control(socket, RcPeer.TIMEOUT_MILLIS);
            String ready = control.receive();
            if (!ready.equals("rts")) {
                throw new IOException("the peer answered '" + ready + "' instead of rts");
            }
            return new PeerLink(socket, control, theirs);
        } catch (IOException | RuntimeException e) {
            socket.close();
            throw e;
        }
    }

    /** Host B: publishes a listening "port", accepts the test, exchanges, connects {@code qp}, sends "rts". */
    static PeerLink accept(TestDevice device, QueuePair qp, EndpointInfo mine) throws IOException {
        Socket socket;
        try (ServerSocket server = new ServerSocket(0, 1, PeerSide.localAddress())) {
            server.setSoTimeout(RcPeer.TIMEOUT_MILLIS);
            PeerSide.publish("port", server.getLocalPort());
            socket = server.accept();
        }
        try {
            EndpointInfo theirs = EndpointExchange.exchange(socket, mine, EXCHANGE_TIMEOUT);
            RcConnection.connect(qp, device, mine, theirs, ACK_TIMEOUT);
            Control control = new Control(socket, RcPeer.TIMEOUT_MILLIS);
            control.send("rts");
            return new PeerLink(socket, control, theirs);
        } catch (IOException | RuntimeException e) {
            socket.close();
            throw e;
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
