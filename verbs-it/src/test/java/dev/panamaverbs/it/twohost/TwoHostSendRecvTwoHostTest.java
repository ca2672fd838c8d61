package dev.panamaverbs.it.twohost;

import dev.panamaverbs.it.support.InteropPeers;
import dev.panamaverbs.it.support.PeerHost;
import dev.panamaverbs.it.support.PeerPairing;
import dev.panamaverbs.it.support.PeerPairing.Listening;
import dev.panamaverbs.it.support.PeerPairing.Outputs;
import dev.panamaverbs.it.support.PeerPairing.Peer;
import dev.panamaverbs.it.support.RdmaCmSupport;
import dev.panamaverbs.it.support.TwoHostTest;
import dev.panamaverbs.it.support.TwoHosts;
import java.time.Duration;
import java.util.List;

/**
 * The README's two-host example (examples' {@code TwoHostSendRecv}, which ReadmeTwoHostExampleTest
 * keeps equal to the README and the javadoc overview) between two processes on two hosts: the
 * server on host B, the client on host A, one SEND each way over rdma_cm.
 */
class TwoHostSendRecvTwoHostTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(240);
    private static final int PORT = 7473;

    @TwoHostTest
    void theReadmeExampleRunsOnTwoHosts(TwoHosts hosts) throws Exception {
        RdmaCmSupport.requireRdmaCm();
        PeerHost serverHost = PeerHost.hostB(hosts);
        String address = serverHost.address().getHostAddress();
        String port = Integer.toString(PORT);
        Outputs outputs = PeerPairing.run(
                new Peer(serverHost, "java example server",
                        InteropPeers.java(InteropPeers.TWO_HOST_SEND_RECV, List.of("server", address, port))),
                Listening.RDMA_CM, PORT,
                new Peer(PeerHost.hostA(hosts), "java example client",
                        InteropPeers.java(InteropPeers.TWO_HOST_SEND_RECV, List.of("client", address, port))),
                TIMEOUT);
        PeerPairing.expect(outputs, "client", outputs.client(), text -> text.contains("client received: pong"),
                "no 'client received: pong'");
        PeerPairing.expect(outputs, "server", outputs.server(), text -> text.contains("server received: ping"),
                "no 'server received: ping'");
    }
}
