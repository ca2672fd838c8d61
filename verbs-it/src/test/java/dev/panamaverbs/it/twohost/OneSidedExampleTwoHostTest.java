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
import dev.panamaverbs.testkit.DeviceCapability;
import java.time.Duration;
import java.util.List;

/**
 * The one-sided windows example ({@code ./verbs example windows}, {@code ProducerConsumer})
 * across the two hosts: the consumer listens (rdma_cm) on host B, the producer on host A pushes
 * {@link #COUNT} records into the consumer's window with putWithSignal. Both must exit 0; the
 * consumer must have printed the first records and the last as they are, and both their totals.
 * Needs {@code CONNECT_WITHOUT_CM} and {@code ATOMICS}, which {@code OneSidedChannel} needs (on
 * siw the example ends with its refusal).
 */
class OneSidedExampleTwoHostTest {
    private static final int COUNT = 300;
    private static final Duration TIMEOUT = Duration.ofSeconds(240);

    @TwoHostTest
    void theProducerPushesRecordsIntoTheConsumersWindow(TwoHosts hosts) throws Exception {
        RdmaCmSupport.requireRdmaCm();
        // OneSidedChannel refuses both (its companion connects by ibv_modify_qp; signals are atomics).
        DeviceCapability.CONNECT_WITHOUT_CM.require(hosts.device());
        DeviceCapability.ATOMICS.require(hosts.device());
        PeerHost consumerHost = PeerHost.hostB(hosts);
        String address = consumerHost.address().getHostAddress();
        int port = 7320;
        String portText = Integer.toString(port), count = Integer.toString(COUNT);
        Outputs outputs = PeerPairing.run(
                new Peer(consumerHost, "java windows consumer", InteropPeers.java(InteropPeers.WINDOWS,
                        List.of("consumer", address, portText, count))),
                Listening.RDMA_CM, port,
                new Peer(PeerHost.hostA(hosts), "java windows producer", InteropPeers.java(InteropPeers.WINDOWS,
                        List.of("producer", address, portText, count))),
                TIMEOUT);
        for (int n : new int[] {1, 2, 3, COUNT}) {
            String line = "consumer: record " + n + ": \"record " + n + " from the producer\"\n";
            PeerPairing.expect(outputs, "consumer", outputs.server(), text -> text.contains(line), "no line " + line.strip());
        }
        PeerPairing.expect(outputs, "consumer", outputs.server(),
                text -> text.contains("consumer: " + COUNT + " records received in order"), "no total");
        PeerPairing.expect(outputs, "producer", outputs.client(),
                text -> text.contains("producer: " + COUNT + " records pushed"), "no total");
    }
}
