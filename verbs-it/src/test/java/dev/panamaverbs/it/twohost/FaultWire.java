package dev.panamaverbs.it.twohost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import dev.panamaverbs.CompletionQueue;
import dev.panamaverbs.Completions;
import dev.panamaverbs.Context;
import dev.panamaverbs.cm.EndpointExchange;
import dev.panamaverbs.cm.EndpointInfo;
import dev.panamaverbs.values.GidEntry;
import dev.panamaverbs.ProtectionDomain;
import dev.panamaverbs.values.QueuePairType;
import dev.panamaverbs.QueuePair;
import dev.panamaverbs.QueuePairOptions;
import dev.panamaverbs.RemoteRegion;
import dev.panamaverbs.SendWorkRequest;
import dev.panamaverbs.Verbs;
import dev.panamaverbs.values.WorkRequestOpcode;
import dev.panamaverbs.it.support.Commands;
import dev.panamaverbs.it.support.Peer;
import dev.panamaverbs.testkit.RegisteredBuffer;
import dev.panamaverbs.testkit.TestDevice;
import dev.panamaverbs.it.support.TwoHosts;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Host A's side of the wire-fault and soak tests: one context, domain and buffer on the link
 * device, {@link FaultPeer} started on host B, RC connections to it ({@link #connect}), RDMA
 * WRITEs of a pattern ({@link #writeAll}) and netem on A's link NIC ({@link #netem}). Closing
 * removes netem, kills the peer and closes what it opened.
 */
final class FaultWire implements AutoCloseable {
    static final int WRITES = 64, WRITE_SIZE = 8192, DEPTH = 16, PSN = 0x00D0D0;
    /** What {@link #writeAll} covers of B's region, from 0. */
    static final long WRITTEN = (long) WRITES * WRITE_SIZE;

    private final TwoHosts hosts;
    private final TestDevice device;
    private final Context context;
    private final ProtectionDomain pd;
    /** Host A's registered buffer, and {@link FaultPeer} on host B: the tests use both directly. */
    final RegisteredBuffer buffer;
    final Peer peer;
    private final int peerPort;

    /** One RC connection to B: its socket (endpoint exchange, then requests), queue and QP. */
    record Link(Socket socket, Control control, CompletionQueue cq, QueuePair qp, RemoteRegion remote) {
        void close() throws IOException {
            qp.close();
            cq.close();
            socket.close();
        }
    }

    FaultWire(TwoHosts hosts) {
        this.hosts = hosts;
        device = hosts.device();
        context = Verbs.device(device.name()).orElseThrow().open();
        pd = context.allocateProtectionDomain();
        buffer = RegisteredBuffer.allocate(pd, WRITE_SIZE * DEPTH);
        peer = hosts.startPeer(FaultPeer.class);
        peerPort = peer.awaitInt("port", TwoHosts.PEER_START_TIMEOUT);
    }

    /** The soak's UD side on host A, on the wire's context and domain. */
    SoakDatagrams openDatagrams() {
        return new SoakDatagrams(context, pd, device);
    }

    Link connect() throws IOException {
        Socket socket = EndpointExchange.connectSocket(new InetSocketAddress(hosts.peerAddress(), peerPort), Duration.ofSeconds(60));
        CompletionQueue cq = context.createCompletionQueue(64);
        QueuePair qp = pd.createQueuePair(QueuePairOptions.builder(QueuePairType.RC, cq)
                .maxSendWorkRequests(DEPTH).maxReceiveWorkRequests(4).maxSendSge(1).maxReceiveSge(1).build());
        GidEntry gid = context.queryGid(device.port(), device.gidIndex()).orElseThrow();
        EndpointInfo mine = EndpointInfo.of(qp, PSN, gid.gid(), context.queryPort(device.port()).activeMtu());
        EndpointInfo theirs = EndpointExchange.exchange(socket, mine, Duration.ofSeconds(60));
        RcConnection.connect(qp, device, mine, theirs);
        Control control = new Control(socket, FaultPeer.CONTROL_TIMEOUT_MILLIS);
        assertEquals("rts", control.receive());
        return new Link(socket, control, cq, qp, theirs.region().orElseThrow());
    }

    /** WRITEs of the pattern {@code seed} into B's region from 0 on, at most {@link #DEPTH} outstanding; the time they took. */
    long writeAll(Link link, long seed) {
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

    /** Sets netem on host A's link NIC (e.g. "loss 10%"), or removes it ({@code null}). */
    void netem(String spec) {
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
    @Override
    public void close() throws Exception {
        try {
            netem(null);
        } finally {
            // the peer, the buffer, then the context (reverse order of declaration), each even when one before failed
            try (Context c = context; RegisteredBuffer b = buffer; Peer p = peer) {
                // nothing: only the closing
            }
        }
    }
}
