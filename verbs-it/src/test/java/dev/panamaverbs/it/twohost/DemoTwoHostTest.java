package dev.panamaverbs.it.twohost;

import dev.panamaverbs.it.support.PeerPairing;
import dev.panamaverbs.it.support.InteropPeers;
import dev.panamaverbs.it.support.PeerHost;
import dev.panamaverbs.it.support.RdmaCmSupport;
import dev.panamaverbs.it.support.PeerPairing.Listening;
import dev.panamaverbs.it.support.PeerPairing.Outputs;
import dev.panamaverbs.it.support.PeerPairing.Peer;
import dev.panamaverbs.it.support.TwoHostTest;
import dev.panamaverbs.it.support.TwoHosts;
import java.time.Duration;
import java.util.List;

/**
 * The main job's two-host half ({@code ./verbs demo} runs {@code TwoHostDemo} this way): the
 * server on host B, the client on host A, connected by rdma_cm across the link. Both must exit 0
 * and print each step: the SEND/RECV exchange, the WRITE, the READ checked against it, both
 * atomics, the latency and throughput lines, and the server's own check of what the client wrote.
 */
class DemoTwoHostTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(240);
    private static final int PORT = 7471;

    @TwoHostTest
    void theDemoRunsBetweenTwoProcessesOnTwoHosts(TwoHosts hosts) throws Exception {
        RdmaCmSupport.requireRdmaCm();
        PeerHost serverHost = PeerHost.hostB(hosts);
        List<String> where = List.of(serverHost.address().getHostAddress(), Integer.toString(PORT));
        Outputs outputs = PeerPairing.run(
                new Peer(serverHost, "java demo server", InteropPeers.java(InteropPeers.TWO_HOST_DEMO, with("server", where))),
                Listening.RDMA_CM, PORT,
                new Peer(PeerHost.hostA(hosts), "java demo client", InteropPeers.java(InteropPeers.TWO_HOST_DEMO, with("client", where))),
                TIMEOUT);
        for (String line : List.of("client: connected to ", "SEND/RECV: \"", "WRITE: ", "READ: ", "bytes read back, identical",
                "ATOMIC: fetch-and-add ", "compare-and-swap -> 42", "latency: 64-byte RDMA WRITE to completion, median ",
                "throughput: ", "client: disconnected")) {
            PeerPairing.expect(outputs, "client", outputs.client(), text -> text.contains(line), "no '" + line + "'");
        }
        for (String line : List.of("server: connected to ", "RECV: \"", "WRITE and its atomics (slot = 42) verified",
                "server: disconnected")) {
            PeerPairing.expect(outputs, "server", outputs.server(), text -> text.contains(line), "no '" + line + "'");
        }
    }

    private static List<String> with(String role, List<String> where) {
        return List.of(role, where.get(0), where.get(1));
    }
}
