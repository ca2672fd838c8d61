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
 * Also the README's two-host example, the same way.
 */
class DemoTwoHostTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(240);
    private static final int PORT = 7471;
    private static final int EXAMPLE_PORT = 7473;

    @TwoHostTest
    void theDemoRunsBetweenTwoProcessesOnTwoHosts(TwoHosts hosts) throws Exception {
        Outputs outputs = serverOnBClientOnA(hosts, InteropPeers.TWO_HOST_DEMO, "demo", PORT);
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

    /**
     * The README's two-host example (examples' {@code TwoHostSendRecv}, which ReadmeTwoHostExampleTest
     * keeps equal to the README and the javadoc overview): one SEND each way over rdma_cm.
     */
    @TwoHostTest
    void theReadmeTwoHostExampleRunsBetweenTwoHosts(TwoHosts hosts) throws Exception {
        Outputs outputs = serverOnBClientOnA(hosts, InteropPeers.TWO_HOST_SEND_RECV, "example", EXAMPLE_PORT);
        PeerPairing.expect(outputs, "client", outputs.client(), text -> text.contains("client received: pong"),
                "no 'client received: pong'");
        PeerPairing.expect(outputs, "server", outputs.server(), text -> text.contains("server received: ping"),
                "no 'server received: ping'");
    }

    /** {@code mainClass server|client ADDRESS PORT}: the server on host B, then the client on host A. */
    private static Outputs serverOnBClientOnA(TwoHosts hosts, String mainClass, String what, int port) throws Exception {
        RdmaCmSupport.requireRdmaCm();
        PeerHost serverHost = PeerHost.hostB(hosts);
        List<String> where = List.of(serverHost.address().getHostAddress(), Integer.toString(port));
        return PeerPairing.run(
                new Peer(serverHost, "java " + what + " server", InteropPeers.java(mainClass, with("server", where))),
                Listening.RDMA_CM, port,
                new Peer(PeerHost.hostA(hosts), "java " + what + " client", InteropPeers.java(mainClass, with("client", where))),
                TIMEOUT);
    }

    private static List<String> with(String role, List<String> where) {
        return List.of(role, where.get(0), where.get(1));
    }
}
