package dev.panamaverbs.it.twohost;

import dev.panamaverbs.cm.EndpointExchange;
import dev.panamaverbs.cm.EndpointInfo;
import dev.panamaverbs.it.support.Peer;
import dev.panamaverbs.it.support.TwoHostTest;
import dev.panamaverbs.it.support.TwoHosts;
import java.net.InetSocketAddress;
import java.time.Duration;

/**
 * UD across two hosts: datagrams from this test on host A to {@link UdPeer} on host B and back,
 * each side's address handle built from the other's GID (rxe1's RoCE v2 IPv4 GID, chosen by
 * type), the endpoints exchanged over a connection {@link EndpointExchange} opens and closes.
 */
class UdTwoHostTest {
    static final long FROM_A = 40, FROM_B = 80;

    @TwoHostTest
    void datagramsBothWays(TwoHosts hosts) throws Exception {
        try (UdDatagrams side = new UdDatagrams(hosts.device());
             Peer peer = hosts.startPeer(UdPeer.class)) {
            int port = peer.awaitInt("port", TwoHosts.PEER_START_TIMEOUT);
            EndpointInfo theirs = EndpointExchange.connect(new InetSocketAddress(hosts.peerAddress(), port), side.endpoint(),
                    Duration.ofSeconds(60));
            side.sendTo(theirs, FROM_A);
            side.receiveFrom(theirs, FROM_B);
            peer.assertSucceeded(Duration.ofSeconds(60));
        }
    }
}
