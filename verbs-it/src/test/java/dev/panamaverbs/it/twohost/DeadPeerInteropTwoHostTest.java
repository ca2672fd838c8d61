package dev.panamaverbs.it.twohost;

import dev.panamaverbs.it.support.PeerPairing;
import dev.panamaverbs.it.support.InteropPeers;
import dev.panamaverbs.it.support.PeerHost;
import dev.panamaverbs.it.support.RdmaCmSupport;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panamaverbs.it.support.PeerPairing.Listening;
import dev.panamaverbs.it.support.PeerPairing.Peer;
import dev.panamaverbs.it.support.TwoHostTest;
import dev.panamaverbs.it.support.TwoHosts;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Our programs on host A against a C peer on host B that is killed (SIGKILL, by B's peer agent) in
 * the middle of the run (two seconds after our side showed the exchange under way): they must notice and exit non-zero within their bound ({@code -T})
 * instead of waiting for ever. rxe retries an unanswered RC packet for ever at retry count 7,
 * which rc_pingpong uses, so only the wait's own bound ends RcPingPong's run; RPing sees the
 * connection go down.
 */
class DeadPeerInteropTwoHostTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(120);

    @TwoHostTest
    void rcPingPongServerNoticesItsClientKilled(TwoHosts hosts) throws Exception {
        RdmaCmSupport.requireRdmaCm();
        PeerHost hostA = PeerHost.hostA(hosts), hostB = PeerHost.hostB(hosts);
        int port = InteropPeers.freeTcpPort();
        List<String> serverArgs = new ArrayList<>(common(hosts, hostA, port));
        serverArgs.addAll(List.of("-T", "60")); // B starts its C client through a JVM (CommandPeer), slow on a loaded host: allow for that
        List<String> clientArgs = new ArrayList<>(common(hosts, hostB, port));
        clientArgs.add(hostA.address().getHostAddress());
        String output = PeerPairing.killMidRun(
                new Peer(hostA, "java server", InteropPeers.java(InteropPeers.RC_PINGPONG, serverArgs)),
                Listening.TCP, port,
                new Peer(hostB, "C client", InteropPeers.c("ibv_rc_pingpong", "ibverbs-utils", clientArgs)),
                false, "remote address:", Duration.ofSeconds(2), TIMEOUT);
        assertTrue(output.contains("rc-pingpong: FAILED"), output);
        assertTrue(!output.contains("no client connected"), "the client was killed mid-run, not before it connected: " + output);
    }

    private static List<String> common(TwoHosts hosts, PeerHost host, int port) {
        return List.of("-d", hosts.device().name(), "-g", host.gidIndexArgument(), "-n", "100000000", "-p", Integer.toString(port));
    }

    @TwoHostTest
    void rpingClientNoticesItsServerKilled(TwoHosts hosts) throws Exception {
        RdmaCmSupport.requireRdmaCm();
        PeerHost hostA = PeerHost.hostA(hosts), hostB = PeerHost.hostB(hosts);
        String address = hostB.address().getHostAddress();
        String port = "7310";
        RdmaCmSupport.resolveOnce(hostB.address()); // the client's -T 10 bounds its resolve too: not the first ARP's
        String output = PeerPairing.killMidRun(
                new Peer(hostB, "C rping server", InteropPeers.c("rping", "rdmacm-utils",
                        List.of("-s", "-a", address, "-p", port, "-S", "100"))),
                Listening.RDMA_CM, Integer.parseInt(port),
                new Peer(hostA, "java rping client", InteropPeers.java(InteropPeers.RPING,
                        List.of("-c", "-a", address, "-p", port, "-S", "100", "-C", "0", "-v", "-V", "-T", "10"))),
                true, "ping data: ", Duration.ofSeconds(2), TIMEOUT);
        assertTrue(output.contains("rping client failed"), output);
    }
}
