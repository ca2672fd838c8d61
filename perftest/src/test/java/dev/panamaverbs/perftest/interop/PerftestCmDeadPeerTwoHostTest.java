package dev.panamaverbs.perftest.interop;

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
 * Our {@code write_bw -R} client on host A against Debian's {@code ib_write_bw -R} server on host
 * B, killed (SIGKILL, by B's peer agent) two seconds into a 30-second run: with both the
 * out-of-band link and the test's queue pair on rdma_cm, our client must notice and exit non-zero
 * with the reason within its bound, not wait for ever.
 */
class PerftestCmDeadPeerTwoHostTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(150);
    private static final int PORT = 18690;

    @TwoHostTest
    void javaClientNoticesItsCServerKilledMidRun(TwoHosts hosts) throws Exception {
        RdmaCmSupport.requireRdmaCm();
        PeerHost hostA = PeerHost.hostA(hosts), hostB = PeerHost.hostB(hosts);
        List<String> common = List.of("-d", hosts.device().name(), "-F", "-s", "65536", "-D", "30", "-p",
                Integer.toString(PORT), "-R");
        List<String> clientArgs = new ArrayList<>(common);
        clientArgs.addFirst("write_bw");
        clientArgs.addAll(List.of(hostB.address().getHostAddress(), "--timeout", "60"));
        String output = PeerPairing.killMidRun(
                new Peer(hostB, "C ib_write_bw -R server", InteropPeers.c("ib_write_bw", "perftest", common)),
                Listening.RDMA_CM, PORT,
                new Peer(hostA, "java write_bw -R client", InteropPeers.jar(PerftestInterop.PERFTEST_JAR,
                        "perftest/target/verbs-perftest.jar", clientArgs)),
                true, PerftestInterop.BANDWIDTH_HEADER, Duration.ofSeconds(2), TIMEOUT);
        assertTrue(output.contains("FAILED"), output);
    }
}
