package dev.panamaverbs.examples.pingpong;

import dev.panamaverbs.values.AccessFlag;
import dev.panamaverbs.CompletionQueue;
import dev.panamaverbs.Context;
import dev.panamaverbs.values.Gid;
import dev.panamaverbs.MemoryRegion;
import dev.panamaverbs.values.PortAttributes;
import dev.panamaverbs.ProtectionDomain;
import dev.panamaverbs.values.QueuePairType;
import dev.panamaverbs.QueuePair;
import dev.panamaverbs.QueuePairOptions;
import dev.panamaverbs.values.ReadyToReceiveOptions;
import dev.panamaverbs.values.ReadyToSendOptions;
import dev.panamaverbs.ReceiveWorkRequest;
import dev.panamaverbs.values.RemoteEndpoint;
import dev.panamaverbs.SendWorkRequest;
import dev.panamaverbs.VerbsException;
import dev.panamaverbs.values.WorkRequestOpcode;
import dev.panamaverbs.examples.cli.ToolDevice;
import java.lang.foreign.Arena;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * rc_pingpong's verbs objects: one buffer of {@code size} bytes (filled with 0x7b; with {@code -c}
 * the client zeroes the first byte of every page, what the server checks) registered
 * for local write, a completion queue of {@code rx_depth + 1} entries for both queues, and an RC
 * queue pair (1 send, {@code rx_depth} receives, one SGE each) moved to INIT at creation, with no
 * remote access. Sends are inline when the queue pair's inline limit covers the size.
 */
final class PingPongContext implements AutoCloseable {
    static final long RECV_WRID = 1;
    static final long SEND_WRID = 2;
    /** The page size rc_pingpong's {@code -c} pattern and check step by. */
    static final int PAGE_SIZE = 4096;

    private final PingPongOptions options;
    private final Arena arena = Arena.ofConfined();
    private final Context context;
    private final MemoryRegion buffer;
    private final CompletionQueue cq;
    private final QueuePair qp;
    private final SendWorkRequest send;
    private final ReceiveWorkRequest receive;
    private final PingPongDestination local;

    private PingPongContext(PingPongOptions options, Context context) {
        this.options = options;
        this.context = context;
        ProtectionDomain pd = context.allocateProtectionDomain();
        buffer = pd.allocateMemoryRegion(options.size(), EnumSet.of(AccessFlag.LOCAL_WRITE));
        buffer.memory().fill((byte) 0x7b);
        if (options.validate() && !options.isServer()) {
            for (long i = 0; i < options.size(); i += PAGE_SIZE) {
                buffer.memory().set(ValueLayout.JAVA_BYTE, i, (byte) 0);   // C: i / page_size % sizeof(char)
            }
        }
        cq = context.createCompletionQueue(options.rxDepth() + 1);
        qp = pd.createQueuePair(QueuePairOptions.builder(QueuePairType.RC, cq).maxSendWorkRequests(1)
                .maxReceiveWorkRequests(options.rxDepth()).maxSendSge(1).maxReceiveSge(1).build());
        boolean inline = qp.capabilities().maxInlineData() >= options.size();
        qp.toInit(options.ibPort(), 0, EnumSet.noneOf(AccessFlag.class));
        send = SendWorkRequest.allocate(arena, 1).wrId(SEND_WRID).opcode(WorkRequestOpcode.SEND).signaled(true)
                .inline(inline).sge(0, buffer, 0, options.size());
        receive = ReceiveWorkRequest.allocate(arena, 1).wrId(RECV_WRID).sge(0, buffer, 0, options.size());
        local = new PingPongDestination(localLid(), qp.number(), ThreadLocalRandom.current().nextInt() & 0xFF_FFFF, localGid());
    }

    /** Opens the device ({@code -d}, else the first) and creates everything on it. */
    static PingPongContext open(PingPongOptions options) {
        return ToolDevice.open(options.device(), context -> new PingPongContext(options, context));
    }

    private int localLid() {
        PortAttributes port = context.queryPort(options.ibPort());
        if (!port.isEthernet() && port.lid() == 0) {
            throw new IllegalStateException("Couldn't get local LID");
        }
        return port.lid();
    }

    private Gid localGid() {
        if (options.gidIndex() == PingPongOptions.NO_GID) {
            return PingPongDestination.zeroGid();
        }
        return context.queryGid(options.ibPort(), options.gidIndex())
                .orElseThrow(() -> new IllegalStateException("can't read sgid of index " + options.gidIndex()))
                .gid();
    }

    /** This side's address for the exchange. */
    PingPongDestination local() {
        return local;
    }

    CompletionQueue completionQueue() {
        return cq;
    }

    /** Posts up to {@code n} receives; returns how many were posted (stops at the first refusal, as C does). */
    int postReceives(int n) {
        for (int i = 0; i < n; i++) {
            try {
                qp.postReceive(receive);
            } catch (VerbsException e) {
                return i;
            }
        }
        return n;
    }

    /** Posts one signaled SEND of the whole buffer. */
    void postSend() {
        qp.postSend(send);
    }

    /**
     * rc_pingpong's {@code pp_connect_ctx}: RTR towards {@code remote} (a GRH with hop limit 1 and
     * our {@code -g} entry when the remote sent a GID, else its LID; max_dest_rd_atomic 1,
     * min_rnr_timer 12), then RTS (timeout 14, retry 7, RNR retry 7, max_rd_atomic 1).
     */
    void connect(PingPongDestination remote) {
        RemoteEndpoint endpoint;
        if (remote.hasGid()) {
            if (options.gidIndex() == PingPongOptions.NO_GID) {
                throw new IllegalStateException("the remote side sent a GID: give -g <local gid index> to send with a GRH");
            }
            endpoint = RemoteEndpoint.global(remote.qpn(), remote.psn(), remote.gid(), options.gidIndex(), options.mtu())
                    .withHopLimit(1);
        } else {
            endpoint = RemoteEndpoint.local(remote.qpn(), remote.psn(), remote.lid(), options.mtu());
        }
        endpoint = endpoint.withServiceLevel(options.serviceLevel()).withPort(options.ibPort());
        qp.toRtr(endpoint, new ReadyToReceiveOptions(1, 12));
        qp.toRts(new ReadyToSendOptions(local.psn(), 14, 7, 7, 1));
    }

    /** The pages whose first byte is not 0 (rc_pingpong's {@code -c} check on the server), by number. */
    List<Long> invalidPages() {
        List<Long> invalid = new ArrayList<>();
        for (long i = 0; i < options.size(); i += PAGE_SIZE) {
            if (buffer.memory().get(ValueLayout.JAVA_BYTE, i) != 0) {
                invalid.add(i / PAGE_SIZE);
            }
        }
        return invalid;
    }

    /** Closes every verbs object (the context closes what it holds) and the work requests' memory. */
    @Override
    public void close() {
        try {
            context.close();
        } finally {
            arena.close();
        }
    }
}
