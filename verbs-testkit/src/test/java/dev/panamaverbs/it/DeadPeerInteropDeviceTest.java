package dev.panamaverbs.it;

import dev.panamaverbs.it.PeerPairing.Listening;
import dev.panamaverbs.it.PeerPairing.Peer;
import dev.panamaverbs.testkit.DeviceTest;
import dev.panamaverbs.testkit.TestDevice;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Our programs against a C peer that is killed in the middle of the run: they must notice and
 * exit non-zero within their bound ({@code -T 10}) instead of waiting for ever. rxe retries an
 * unanswered RC packet for ever at retry count 7, which rc_pingpong uses, so only the wait's own
 * bound ends RcPingPong's run; RPing sees the connection go down.
 */
class DeadPeerInteropDeviceTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(120);

    @DeviceTest
    void rcPingPongServerNoticesItsClientKilled(TestDevice device) throws Exception {
        RdmaCmSupport.requireRdmaCm();
        String address = RdmaCmSupport.deviceAddress(device).getHostAddress();
        int port = InteropPeers.freeTcpPort();
        List<String> common = List.of("-d", device.name(), "-g", Integer.toString(InteropPeers.roceV2Ipv4GidIndex(device)),
                "-n", "100000000", "-p", Integer.toString(port));
        List<String> serverArgs = new java.util.ArrayList<>(common);
        serverArgs.addAll(List.of("-T", "10"));
        List<String> clientArgs = new java.util.ArrayList<>(common);
        clientArgs.add(address);
        String output = PeerPairing.killMidRun(
                new Peer(PeerHost.LOCAL, "java server", InteropPeers.java(InteropPeers.RC_PINGPONG, serverArgs)),
                Listening.TCP, port,
                new Peer(PeerHost.LOCAL, "C client", InteropPeers.c("ibv_rc_pingpong", "ibverbs-utils", clientArgs)),
                false, Duration.ofSeconds(5), TIMEOUT);
        assertTrue(output.contains("rc-pingpong: FAILED"), output);
    }

    @DeviceTest
    void rpingClientNoticesItsServerKilled(TestDevice device) throws Exception {
        RdmaCmSupport.requireRdmaCm();
        String address = RdmaCmSupport.deviceAddress(device).getHostAddress();
        String port = "7310";
        String output = PeerPairing.killMidRun(
                new Peer(PeerHost.LOCAL, "C rping server", InteropPeers.c("rping", "rdmacm-utils",
                        List.of("-s", "-a", address, "-p", port, "-S", "100"))),
                Listening.RDMA_CM, Integer.parseInt(port),
                new Peer(PeerHost.LOCAL, "java rping client", InteropPeers.java(InteropPeers.RPING,
                        List.of("-c", "-a", address, "-p", port, "-S", "100", "-C", "0", "-V", "-T", "10"))),
                true, Duration.ofSeconds(20), TIMEOUT);
        assertTrue(output.contains("rping client failed"), output);
    }
}
