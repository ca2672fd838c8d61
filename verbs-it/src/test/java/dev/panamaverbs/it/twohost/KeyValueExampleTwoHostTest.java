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
 * The key-value example over verbs-messaging ({@code ./verbs example kv}, {@code KeyValueService})
 * across the two hosts: the server listens (rdma_cm) on host B, the client on host A puts
 * {@link #COUNT} keys with values of seeded random sizes up to a whole message, reads each back
 * byte for byte, deletes every third and checks each is gone, with 8 requests in flight. Both must
 * exit 0, and the server must have served exactly the requests the client counted. A server killed
 * mid-load must fail the client's pending requests: it exits non-zero, well before the timeout.
 */
class KeyValueExampleTwoHostTest {
    private static final int COUNT = 120;
    private static final Duration TIMEOUT = Duration.ofSeconds(240);

    @TwoHostTest
    void theClientStoresReadsAndDeletesKeysOnTheServerAcrossTheHosts(TwoHosts hosts) throws Exception {
        Pairing pairing = new Pairing(hosts, 7330, List.of(Integer.toString(COUNT), "26"));
        Outputs outputs = PeerPairing.run(pairing.server(), Listening.RDMA_CM, pairing.port(), pairing.client(), TIMEOUT);
        int deleted = COUNT / 3, requests = 2 * COUNT + 2 * deleted;
        for (String line : List.of(COUNT + " keys put", COUNT + " keys read back, every byte checked",
                deleted + " keys deleted, each then not found", requests + " requests answered and checked")) {
            PeerPairing.expect(outputs, "client", outputs.client(), text -> text.contains("client: " + line), "no line " + line);
        }
        PeerPairing.expect(outputs, "server", outputs.server(), text -> text.contains("client 1 left after " + requests + " requests"),
                "the server did not count " + requests + " requests from its client");
        PeerPairing.expect(outputs, "server", outputs.server(),
                text -> text.contains("server: " + requests + " requests served, " + (COUNT - deleted) + " keys stored"), "no total");
    }

    @TwoHostTest
    void aServerKilledMidLoadFailsTheClientsPendingRequests(TwoHosts hosts) throws Exception {
        Pairing pairing = new Pairing(hosts, 7331, List.of("1000000"));
        String output = PeerPairing.killMidRun(pairing.server(), Listening.RDMA_CM, pairing.port(), pairing.client(),
                true, "client: connected", Duration.ofSeconds(3), TIMEOUT);
        if (!output.contains("client: FAILED")) {
            throw new AssertionError("the client did not report the lost server as a failure:\n" + output);
        }
    }

    /** A server for one client on host B at {@code port}, and the client on host A with {@code clientArgs} (COUNT [SEED]). */
    private record Pairing(Peer server, Peer client, int port) {
        Pairing(TwoHosts hosts, int port, List<String> clientArgs) {
            this(peer(PeerHost.hostB(hosts), "server", hosts, port, List.of("1")),
                    peer(PeerHost.hostA(hosts), "client", hosts, port, clientArgs), port);
        }

        private static Peer peer(PeerHost host, String role, TwoHosts hosts, int port, List<String> more) {
            RdmaCmSupport.requireRdmaCm();
            String address = PeerHost.hostB(hosts).address().getHostAddress();
            List<String> args = new java.util.ArrayList<>(List.of(role, address, Integer.toString(port)));
            args.addAll(more);
            return new Peer(host, "java kv " + role, InteropPeers.java(InteropPeers.KEY_VALUE, args));
        }
    }
}
