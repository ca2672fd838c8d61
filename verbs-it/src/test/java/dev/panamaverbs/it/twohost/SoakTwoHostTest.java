package dev.panamaverbs.it.twohost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panamaverbs.SendWorkRequest;
import dev.panamaverbs.values.WorkRequestOpcode;
import dev.panamaverbs.it.support.KernelResources;
import dev.panamaverbs.it.support.TwoHostTest;
import dev.panamaverbs.it.support.TwoHosts;
import java.time.Duration;
import java.util.Map;
import java.util.Random;

/**
 * A soak on the two-host wire: for {@link #SECONDS} seconds (environment {@code VERBS_SOAK_SECONDS};
 * {@code ./verbs soak SECONDS} runs it alone and long, the suite runs {@value #SUITE_SECONDS} s)
 * under 1% packet loss on host A's link NIC, round after round: a new RC connection to
 * {@link FaultPeer} on host B, RDMA WRITEs checked byte for byte on B, UD datagrams both ways
 * (each checked where it lands; some may be lost), then either a clean goodbye or an abrupt close
 * with WRITEs still outstanding (chosen at random, seed printed). At the end: no UD datagram arrived
 * wrong, most arrived, and both hosts' kernel object counts are where they were.
 */
class SoakTwoHostTest {
    static final int SUITE_SECONDS = 20;
    static final int SECONDS = Integer.parseInt(System.getenv().getOrDefault("VERBS_SOAK_SECONDS", Integer.toString(SUITE_SECONDS)));
    private static final int DATAGRAMS = 16;

    @TwoHostTest
    void rcAndUdTrafficWithRandomClosesUnderLossLeaveNothingBehind(TwoHosts hosts) throws Exception {
        String device = hosts.device().name();
        Map<String, Integer> countsOnA = KernelResources.count(device);
        long seed = System.nanoTime();
        Random random = new Random(seed);
        int rounds = 0, abrupt = 0;
        long sentToB = 0, sentToA = 0;
        try (FaultWire wire = new FaultWire(hosts);
             SoakDatagrams datagrams = wire.openDatagrams()) {
            Thread receiver = Thread.ofVirtual().name("ud receiver").start(datagrams::receiveForever);
            String peerUd = wire.peer.awaitValue("ud", TwoHosts.PEER_START_TIMEOUT);
            FaultWire.Link first = wire.connect();
            String countsOnB = first.control().ask("counts"); // with one connection open, as at the end
            assertEquals("bye", first.control().ask("bye"));
            first.close();
            long end = System.nanoTime() + Duration.ofSeconds(SECONDS).toNanos();
            wire.netem("loss 1%");
            try {
                while (System.nanoTime() < end) {
                    rounds++;
                    FaultWire.Link link = wire.connect();
                    wire.writeAll(link, rounds);
                    assertEquals("ok", link.control().ask("check 0 " + FaultWire.WRITTEN + " " + rounds), "round " + rounds);
                    datagrams.send(peerUd, sentToB, DATAGRAMS);
                    sentToB += DATAGRAMS;
                    assertEquals("ok", link.control().ask("ud-send " + sentToA + " " + DATAGRAMS + " " + datagrams.address()));
                    sentToA += DATAGRAMS;
                    if (random.nextBoolean()) {
                        assertEquals("bye", link.control().ask("bye"));
                    } else { // gone with WRITEs in flight: B sees the connection end and destroys its side
                        abrupt++;
                        link.qp().postSend(SendWorkRequest.allocate(1).opcode(WorkRequestOpcode.RDMA_WRITE).signaled(true)
                                .sge(wire.buffer.region(), 0, FaultWire.WRITE_SIZE)
                                .rdma(link.remote().addressAt(0, FaultWire.WRITE_SIZE), link.remote().rkey()));
                    }
                    link.close();
                }
            } finally {
                wire.netem(null);
            }
            FaultWire.Link last = wire.connect();
            String[] onB = last.control().ask("ud-stats").split(" ");
            assertEquals(countsOnB, last.control().ask("counts"), "host B's kernel objects with one connection open, as at the start");
            assertEquals("bye", last.control().ask("bye"));
            last.close();
            Thread.sleep(500); // the last datagrams to A
            receiver.interrupt();
            receiver.join(5000);
            System.out.printf("soak: %d s under 1%% loss, seed %d: %d rounds (%d closed abruptly), %d WRITEs of %d B checked;"
                    + " UD to B %s of %d arrived (%s wrong), to A %d of %d (%d wrong)%n", SECONDS, seed, rounds, abrupt,
                    rounds * FaultWire.WRITES, FaultWire.WRITE_SIZE, onB[0], sentToB, onB[1], datagrams.received.get(), sentToA,
                    datagrams.wrong.get());
            assertEquals("0", onB[1], "datagrams that reached B wrong");
            assertEquals(0, datagrams.wrong.get(), "datagrams that reached A wrong");
            assertTrue(Long.parseLong(onB[0]) >= sentToB * 8 / 10, "most datagrams reach B under 1% loss");
            assertTrue(datagrams.received.get() >= sentToA * 8 / 10, "most datagrams reach A under 1% loss");
            assertTrue(rounds >= 2, "at least two rounds in " + SECONDS + " s");
        }
        assertEquals(countsOnA, KernelResources.count(device), "host A's kernel objects after the soak");
    }
}
