package dev.panamaverbs.it.twohost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.panamaverbs.CompletionQueue;
import dev.panamaverbs.CompletionStatus;
import dev.panamaverbs.Completions;
import dev.panamaverbs.Context;
import dev.panamaverbs.EndpointExchange;
import dev.panamaverbs.EndpointInfo;
import dev.panamaverbs.GidEntry;
import dev.panamaverbs.ProtectionDomain;
import dev.panamaverbs.QpState;
import dev.panamaverbs.QpType;
import dev.panamaverbs.QueuePair;
import dev.panamaverbs.QueuePairOptions;
import dev.panamaverbs.RemoteRegion;
import dev.panamaverbs.SendWorkRequest;
import dev.panamaverbs.Verbs;
import dev.panamaverbs.WorkRequestOpcode;
import dev.panamaverbs.it.Commands;
import dev.panamaverbs.it.KernelResources;
import dev.panamaverbs.testkit.Peer;
import dev.panamaverbs.testkit.RegisteredBuffer;
import dev.panamaverbs.testkit.TestDevice;
import dev.panamaverbs.testkit.TwoHostExtension;
import dev.panamaverbs.testkit.TwoHostTest;
import dev.panamaverbs.testkit.TwoHosts;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * Detection bound asserted: {@link #DETECTION_FACTOR} times the predicted time plus
 * {@link #DETECTION_SLACK} (rxe's retransmit timer runs on jiffies, and the VMs are emulated).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ExtendWith(TwoHostExtension.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class WireFaultTwoHostTest {
    private static final int WRITES = 64, WRITE_SIZE = 8192, DEPTH = 16, PSN = 0x00D0D0;
    private TwoHosts hosts;
    private TestDevice device;
    /** Host A's side: one context, domain and buffer for every connection of the class. */
    private Context context;
    private ProtectionDomain pd;
    private RegisteredBuffer buffer;
    /** {@link FaultPeer} on host B, and the port it accepts connections on. */
    private Peer peer;
    private int peerPort;
    /** Host A's kernel object counts before the first connection. */
    private Map<String, Integer> baseline;

    /** The detection bound: this many times the predicted time, plus {@link #DETECTION_SLACK}. */
    private static final int DETECTION_FACTOR = 10;
    private static final Duration DETECTION_SLACK = Duration.ofSeconds(5);

    /** One RC connection to B: its socket (endpoint exchange, then requests), queue and QP. */
    private record Link(Socket socket, Control control, CompletionQueue cq, QueuePair qp, RemoteRegion remote) {
        void close() throws IOException {
            qp.close();
            cq.close();
            socket.close();
        }
    }

    @BeforeAll
    void start(TwoHosts hosts) {
        this.hosts = hosts;
        device = hosts.device();
        context = Verbs.device(device.name()).orElseThrow().open();
        pd = context.allocateProtectionDomain();
        buffer = RegisteredBuffer.allocate(pd, WRITE_SIZE * DEPTH);
        baseline = KernelResources.count(device.name());
        peer = hosts.startPeer(FaultPeer.class);
        peerPort = peer.awaitInt("port", TwoHosts.PEER_START_TIMEOUT);
    }

    @AfterAll
    void stop() throws Exception {
        try {
            netem(null);
        } finally {
            Closing.inOrder(peer, buffer, context);
        }
    }

    private Link connect() throws IOException {
        Socket socket = EndpointExchange.connectSocket(new InetSocketAddress(hosts.peerAddress(), peerPort), Duration.ofSeconds(60));
        CompletionQueue cq = context.createCompletionQueue(64);
        QueuePair qp = pd.createQueuePair(QueuePairOptions.builder(QpType.RC, cq)
                .maxSendWorkRequests(DEPTH).maxReceiveWorkRequests(4).maxSendSge(1).maxReceiveSge(1).build());
        GidEntry gid = context.queryGid(device.port(), device.gidIndex()).orElseThrow();
        EndpointInfo mine = EndpointInfo.of(qp, PSN, gid.gid(), context.queryPort(device.port()).activeMtu());
        EndpointInfo theirs = EndpointExchange.exchange(socket, mine, Duration.ofSeconds(60));
        RcConnection.connect(qp, device, mine, theirs);
        Control control = new Control(socket, FaultPeer.CONTROL_TIMEOUT_MILLIS);
        assertEquals("rts", control.receive());
        return new Link(socket, control, cq, qp, theirs.region().orElseThrow());
    }

    @TwoHostTest
    @Order(1)
    void rcDeliversEveryWriteIntactUnderPacketLoss() throws Exception {
        Link link = connect();
        writeAll(link, 99); // warm-up: class loading and compilation stay out of the times below
        long lossless = 0;
        for (int percent : new int[] {0, 1, 10}) {
            long seed = 100 + percent;
            netem(percent == 0 ? null : "loss " + percent + "%");
            long millis;
            try {
                millis = writeAll(link, seed);
            } finally {
                netem(null);
            }
            assertEquals("ok", link.control().ask("check 0 " + (long) WRITES * WRITE_SIZE + " " + seed), "B's check at " + percent + "% loss");
            lossless = percent == 0 ? millis : lossless;
            System.out.printf("%d RDMA WRITEs of %d B at %d%% loss on A's egress: %d ms (%.1fx the lossless time), every byte checked on B%n",
                    WRITES, WRITE_SIZE, percent, millis, millis / (double) Math.max(1, lossless));
        }
        assertEquals("bye", link.control().ask("bye"));
        link.close();
    }

    /** WRITEs of the pattern {@code seed} into B's region from 0 on, at most {@link #DEPTH} outstanding; the time they took. */
    private long writeAll(Link link, long seed) {
        Completions wc = Completions.allocate(DEPTH);
        SendWorkRequest write = SendWorkRequest.allocate(1).opcode(WorkRequestOpcode.RDMA_WRITE).signaled(true);
        // The pattern as it sits in B's region, made before the clock starts: each WRITE carries its slice.
        byte[] source = new byte[WRITES * WRITE_SIZE];
        for (int i = 0; i < source.length; i++) {
            source[i] = RegisteredBuffer.patternByte(seed, i);
        }
        long started = System.nanoTime();
        long deadline = started + Duration.ofSeconds(120).toNanos();
        int posted = 0, done = 0;
        while (done < WRITES) {
            while (posted < WRITES && posted - done < DEPTH) {
                int slot = posted % DEPTH;
                MemorySegment.copy(source, posted * WRITE_SIZE, buffer.memory(), ValueLayout.JAVA_BYTE, (long) slot * WRITE_SIZE,
                        WRITE_SIZE);
                link.qp().postSend(write.wrId(posted).sge(buffer.region(), (long) slot * WRITE_SIZE, WRITE_SIZE)
                        .rdma(link.remote().addressAt((long) posted * WRITE_SIZE, WRITE_SIZE), link.remote().rkey()));
                posted++;
            }
            int n = link.cq().poll(wc);
            for (int i = 0; i < n; i++) {
                wc.throwIfFailed(i);
            }
            done += n;
            if (System.nanoTime() > deadline) {
                fail(done + " of " + WRITES + " WRITEs completed in 120 s");
            }
        }
        return (System.nanoTime() - started) / 1_000_000;
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
        Link link = connect();
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
        Link link = connect();
        writeAll(link, 7);
        assertEquals("ok", link.control().ask("check 0 " + (long) WRITES * WRITE_SIZE + " 7"));
        assertEquals("bye", link.control().ask("bye"));
        link.close();
        assertEquals(baseline, KernelResources.count(device.name()), "host A's kernel objects after the failed connections closed");
    }

    @TwoHostTest
    @Order(5)
    void aKilledPeerProcessFailsTheOutstandingWriteInThePredictedTime() throws Exception {
        Link link = connect();
        peer.kill();
        expectRetryExhaustion(link, "B's process killed");
        link.close();
    }

    /**
     * Posts one WRITE to B and checks that it fails with RETRY_EXC_ERR, within the bound, and
     * that the queue pair is then in ERROR (queried from the device).
     */
    private void expectRetryExhaustion(Link link, String fault) {
        Completions wc = Completions.allocate(1);
        Duration predicted = RcConnection.predictedRetryExhaustion();
        Duration bound = predicted.multipliedBy(DETECTION_FACTOR).plus(DETECTION_SLACK);
        long started = System.nanoTime();
        link.qp().postSend(SendWorkRequest.allocate(1).wrId(99).opcode(WorkRequestOpcode.RDMA_WRITE).signaled(true)
                .sge(buffer.region(), 0, 4096).rdma(link.remote().addressAt(0, 4096), link.remote().rkey()));
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
        assertEquals(QpState.ERROR, link.qp().query().state(), fault + ": the queue pair's state on the device");
    }

    /** Sets netem on host A's link NIC (e.g. "loss 10%"), or removes it ({@code null}). */
    private void netem(String spec) {
        if (device == null) {
            return;
        }
        String netdev = linkNetdev();
        if (spec == null) {
            try {
                Commands.output(10, "tc", "qdisc", "del", "dev", netdev, "root");
            } catch (IllegalStateException none) {
                // no qdisc set: nothing to remove
            }
        } else {
            java.util.List<String> command = new java.util.ArrayList<>(java.util.List.of("tc", "qdisc", "replace", "dev", netdev,
                    "root", "netem"));
            command.addAll(java.util.List.of(spec.split(" ")));
            Commands.output(10, command.toArray(String[]::new));
        }
    }

    /** The network device under the link's RDMA device (eth1 in the harness), from sysfs. */
    private String linkNetdev() {
        Path ndev = Path.of("/sys/class/infiniband", device.name(), "ports", Integer.toString(device.port()), "gid_attrs", "ndevs",
                Integer.toString(device.gidIndex()));
        try {
            return Files.readString(ndev).strip();
        } catch (IOException e) {
            throw new IllegalStateException("no network device under " + device + ": " + ndev, e);
        }
    }
}
