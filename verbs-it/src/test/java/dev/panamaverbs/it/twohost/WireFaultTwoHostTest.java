package dev.panamaverbs.it.twohost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.panamaverbs.values.CompletionStatus;
import dev.panamaverbs.Completions;
import dev.panamaverbs.values.QueuePairState;
import dev.panamaverbs.SendWorkRequest;
import dev.panamaverbs.values.WorkRequestOpcode;
import dev.panamaverbs.it.support.KernelResources;
import dev.panamaverbs.it.support.TwoHostExtension;
import dev.panamaverbs.it.support.TwoHostTest;
import dev.panamaverbs.it.support.TwoHosts;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Faults on the wire between the two hosts, on RC queue pairs with an ACK timeout of 2^14 x 4.096 us
 * (67 ms) and 6 retries ({@link RcConnection}), against {@link FaultPeer} on host B:
 * <ol>
 * <li>packet loss (netem on host A's link NIC, 0%, 1% and 10%): every RDMA WRITE completes and
 *     lands intact; the slowdown is printed;</li>
 * <li>B's cable pulled (QEMU set_link, through the host's link controller) under an outstanding
 *     WRITE: it completes with RETRY_EXC_ERR, the time set against (retry + 1) ACK timeouts, and
 *     the queue pair is in ERROR;</li>
 * <li>B frozen (QEMU stop: from the wire, a power cut): the same;</li>
 * <li>a new connection after those failures works, and host A's kernel objects are back where
 *     they were once the failed ones are closed;</li>
 * <li>B's process killed (SIGKILL): the same as 2.</li>
 * </ol>
 * Detection bound asserted: {@link RcConnection#detectionBound}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ExtendWith(TwoHostExtension.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class WireFaultTwoHostTest {
    private TwoHosts hosts;
    private FaultWire wire;
    /** Host A's kernel object counts before the first connection. */
    private Map<String, Integer> baseline;

    @BeforeAll
    void start(TwoHosts hosts) {
        this.hosts = hosts;
        wire = new FaultWire(hosts);
        baseline = KernelResources.count(hosts.device().name()); // with the wire's context, domain and buffer
    }

    @AfterAll
    void stop() throws Exception {
        if (wire != null) {
            wire.close();
        }
    }

    @TwoHostTest
    @Order(1)
    void rcDeliversEveryWriteIntactUnderPacketLoss() throws Exception {
        FaultWire.Link link = wire.connect();
        wire.writeAll(link, 99); // warm-up: class loading and compilation stay out of the times below
        long lossless = 0;
        for (int percent : new int[] {0, 1, 10}) {
            long seed = 100 + percent;
            wire.netem(percent == 0 ? null : "loss " + percent + "%");
            long millis;
            try {
                millis = wire.writeAll(link, seed);
            } finally {
                wire.netem(null);
            }
            assertEquals("ok", link.control().ask("check 0 " + FaultWire.WRITTEN + " " + seed), "B's check at " + percent + "% loss");
            lossless = percent == 0 ? millis : lossless;
            System.out.printf("%d RDMA WRITEs of %d B at %d%% loss on A's egress: %d ms (%.1fx the lossless time), every byte checked on B%n",
                    FaultWire.WRITES, FaultWire.WRITE_SIZE, percent, millis, millis / (double) Math.max(1, lossless));
        }
        assertEquals("bye", link.control().ask("bye"));
        link.close();
    }

    @TwoHostTest
    @Order(2)
    void aPulledCableFailsTheOutstandingWriteInThePredictedTime() throws Exception {
        underFault("B's cable pulled", hosts::pullPeerCable, hosts::plugPeerCable);
    }

    @TwoHostTest
    @Order(3)
    void aFrozenPeerHostFailsTheOutstandingWriteInThePredictedTime() throws Exception {
        underFault("host B frozen", hosts::freezePeerHost, hosts::thawPeerHost);
    }

    /** A new connection, {@code fault}, a WRITE that must fail in time, then {@code repair} whatever happened. */
    private void underFault(String name, Runnable fault, Runnable repair) throws IOException {
        FaultWire.Link link = wire.connect();
        try {
            fault.run();
            expectRetryExhaustion(link, name);
        } finally {
            repair.run();
        }
        link.close();
    }

    @TwoHostTest
    @Order(4)
    void aNewConnectionAfterTheFaultsWorksAndNothingIsLeft() throws Exception {
        FaultWire.Link link = wire.connect();
        wire.writeAll(link, 7);
        assertEquals("ok", link.control().ask("check 0 " + FaultWire.WRITTEN + " 7"));
        assertEquals("bye", link.control().ask("bye"));
        link.close();
        assertEquals(baseline, KernelResources.count(hosts.device().name()), "host A's kernel objects after the failed connections closed");
    }

    @TwoHostTest
    @Order(5)
    void aKilledPeerProcessFailsTheOutstandingWriteInThePredictedTime() throws Exception {
        FaultWire.Link link = wire.connect();
        wire.peer.kill();
        expectRetryExhaustion(link, "B's process killed");
        link.close();
    }

    /**
     * Posts one WRITE to B and checks that it fails with RETRY_EXC_ERR, within the bound, and
     * that the queue pair is then in ERROR (queried from the device).
     */
    private void expectRetryExhaustion(FaultWire.Link link, String fault) {
        Completions wc = Completions.allocate(1);
        Duration predicted = RcConnection.predictedRetryExhaustion();
        Duration bound = RcConnection.detectionBound(predicted);
        long started = System.nanoTime();
        link.qp().postSend(SendWorkRequest.allocate(1).wrId(99).opcode(WorkRequestOpcode.RDMA_WRITE).signaled(true)
                .sge(wire.buffer.region(), 0, 4096).rdma(link.remote().addressAt(0, 4096), link.remote().rkey()));
        while (link.cq().poll(wc) == 0) {
            if (System.nanoTime() - started > bound.toNanos()) {
                fail(fault + ": the WRITE did not complete within " + bound.toMillis() + " ms (predicted " + predicted.toMillis() + " ms)");
            }
            Thread.onSpinWait();
        }
        long millis = (System.nanoTime() - started) / 1_000_000;
        System.out.printf("%s: the outstanding WRITE completed with %s after %d ms; predicted (retry %d + 1) x ACK timeout = %d ms%n",
                fault, wc.status(0), millis, RcConnection.RETRY_COUNT, predicted.toMillis());
        assertEquals(CompletionStatus.RETRY_EXC_ERR, wc.status(0), fault);
        assertTrue(millis >= predicted.toMillis() / 2, fault + ": failed after " + millis + " ms, before the retries could have run");
        assertEquals(QueuePairState.ERROR, link.qp().query().state(), fault + ": the queue pair's state on the device");
    }


}
