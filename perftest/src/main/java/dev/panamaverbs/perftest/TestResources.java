package dev.panamaverbs.perftest;

import dev.panamaverbs.values.AccessFlag;
import dev.panamaverbs.AddressHandle;
import dev.panamaverbs.AddressHandleAttributes;
import dev.panamaverbs.CompletionQueue;
import dev.panamaverbs.cm.ConnectionOptions;
import dev.panamaverbs.Context;
import dev.panamaverbs.values.GidEntry;
import dev.panamaverbs.MemoryRegion;
import dev.panamaverbs.values.Mtu;
import dev.panamaverbs.values.PortAttributes;
import dev.panamaverbs.ProtectionDomain;
import dev.panamaverbs.values.QueuePairType;
import dev.panamaverbs.QueuePair;
import dev.panamaverbs.QueuePairOptions;
import dev.panamaverbs.cm.RdmaDatagramSocket;
import dev.panamaverbs.perftest.cm.CmTestConnection;
import dev.panamaverbs.values.ReadyToReceiveOptions;
import dev.panamaverbs.values.ReadyToSendOptions;
import dev.panamaverbs.values.RemoteEndpoint;
import dev.panamaverbs.examples.cli.ToolDevice;
import dev.panamaverbs.perftest.PerftestOptions.Connection;
import dev.panamaverbs.perftest.wire.KeyMessage;
import dev.panamaverbs.values.TransportType;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/**
 * One test's verbs objects, as perftest lays them out: one buffer registered for every remote
 * access, its first half the local source ({@code buf[0]}) and its second half the target the
 * peer writes to, reads from or adds to (the address and rkey this side sends); one completion
 * queue; one queue pair of the test's connection type ({@code -q} of them on the bandwidth tests,
 * all on that completion queue, each with its own key message). The device and port come first
 * ({@link #open}), the rest once the out-of-band preamble has fixed the MTU and cycle buffer
 * ({@link #create}; with {@code -R}, {@link #adopt} of what rdma_cm made).
 */
final class TestResources implements AutoCloseable {
    /** {@code DEF_QKEY}. */
    static final int QKEY = 0x11111111;
    /** {@code UD_ADDITION}: a UD receive's room for the GRH. */
    static final int UD_GRH = 40;

    /**
     * The Q_Key a UD send names, as perftest: {@code DEF_QKEY}, or with {@code -R} rdma_cm's
     * ({@code RDMA_UDP_QKEY}: rdma_cm gives it to every queue pair of its UDP port space).
     */
    static int remoteQkey(PerftestOptions options) {
        return options.rdmaCm() ? RdmaDatagramSocket.RDMA_UDP_QKEY : QKEY;
    }

    private final PerftestOptions options;
    private final Context context;
    private final PortAttributes port;
    private final GidEntry gid;
    private final int pkeyIndex;
    private ProtectionDomain pd;
    private MemoryRegion buffer;
    private long half;
    private CompletionQueue cq;
    private QueuePair[] qps;
    private int[] psns;
    private int outReads;
    private int inline;
    private AddressHandle addressHandle;
    private KeyMessage[] locals;

    private TestResources(PerftestOptions options, Context context) {
        this.options = options;
        this.context = context;
        this.port = context.queryPort(options.ibPort());
        if (!port.isActive()) {
            throw new IllegalStateException("port " + options.ibPort() + " of " + context.device().name() + " is not active");
        }
        if (context.device().transportType() == TransportType.IWARP && !options.rdmaCm()) {
            // perftest 4.5 goes on and fails at ibv_modify_qp (RTR): an iWARP queue pair reaches RTS only through its CM
            throw new IllegalStateException(context.device().name() + " is an iWARP device: its queue pairs connect only"
                    + " through rdma_cm, not by ibv_modify_qp; run both sides with -R");
        }
        this.gid = chooseGid();
        DeviceFeature.refuse(options.link().deviceFeatures(), context.device().name(), context.maxAttributes());
        this.pkeyIndex = options.link().pkeyIndexOn(context.maxAttributes().maxPkeys());
    }

    /** The largest P_Key index the device takes ({@code max_pkeys - 1}, as perftest's {@code ctx_chk_pkey_index}). */
    private int maxPkeyIndex() {
        return context.maxAttributes().maxPkeys() - 1;
    }

    /** Opens the device ({@code -d}, else the first) and reads its port. */
    static TestResources open(PerftestOptions options) {
        return ToolDevice.open(options.device(), context -> new TestResources(options, context));
    }

    /** perftest's GID choice: {@code -x} when given; on Ethernet the best entry (RoCE: IPv4, RoCE v2; iWARP: IPv4-mapped, else the first); on IB none. */
    private GidEntry chooseGid() {
        if (options.gidIndex() != PerftestOptions.AUTO_GID) {
            return context.queryGid(options.ibPort(), options.gidIndex())
                    .orElseThrow(() -> new IllegalStateException("no GID at index " + options.gidIndex()));
        }
        if (!port.isEthernet()) {
            return null;
        }
        if (context.device().transportType() == TransportType.IWARP) {
            // no RoCE GIDs there (siw's one GID is its MAC): get_best_gid_index's rule, an IPv4-mapped entry, else index 0
            List<GidEntry> gids = context.gidTable(options.ibPort());
            return gids.stream().filter(entry -> entry.gid().isIpv4Mapped()).findFirst().orElse(gids.getFirst());
        }
        return context.requireRoceV2Ipv4Gid(options.ibPort());
    }

    /** The device's name. */
    String deviceName() {
        return context.device().name();
    }

    /** The GID index in use, -1 without GID (perftest's {@code gid_index}). */
    int gidIndex() {
        return gid == null ? -1 : gid.index();
    }

    /** The GID entry in use, if any. */
    Optional<GidEntry> gid() {
        return Optional.ofNullable(gid);
    }

    boolean isEthernet() {
        return port.isEthernet();
    }

    /** The MTU this side offers: {@code -m} when given and not above the port's active MTU, else the active MTU (as an ibv_mtu value). */
    int offeredMtu(java.io.PrintStream err) {
        int active = port.activeMtu().value();
        if (options.mtu() == 0) {
            return active;
        }
        int wanted = Integer.numberOfTrailingZeros(options.mtu()) - 7;
        if (wanted > active) {
            err.println("Requested mtu is higher than active mtu ");
            err.println("Changing to active mtu - " + active);
            return active;
        }
        return wanted;
    }

    /**
     * Creates the buffer, completion queue and queue pair for messages up to {@code maxSize}
     * bytes and a peer whose addresses walk {@code cycleBuffer} bytes, and moves the queue pair to
     * INIT.
     */
    void create(int maxSize, int cycleBuffer, int receiveDepth) {
        pd = context.allocateProtectionDomain();
        registerBuffer(maxSize, cycleBuffer);
        QueuePairType type = switch (options.connection()) {
            case RC -> QueuePairType.RC;
            case UC -> QueuePairType.UC;
            case UD -> QueuePairType.UD;
        };
        int sendDepth = sendDepth();
        int count = options.queuePairs();
        int cqe = (sendDepth + receiveDepth) * count + 16;
        // -e: the queue signals a channel (perftest's ibv_create_comp_channel), on -X's vector (0 by default).
        cq = options.events() ? context.createCompletionQueue(cqe, context.createCompletionChannel(), options.link().completionVector())
                : context.createCompletionQueue(cqe);
        qps = new QueuePair[count];
        for (int i = 0; i < count; i++) {
            QueuePair qp = pd.createQueuePair(QueuePairOptions.builder(type, cq).maxSendWorkRequests(sendDepth)
                    .maxReceiveWorkRequests(Math.max(receiveDepth, 1)).maxSendSge(1).maxReceiveSge(1).maxInlineData(options.inlineSize())
                    .build());
            switch (options.connection()) {
                case UD -> qp.toInit(options.ibPort(), pkeyIndex, QKEY);
                case UC -> qp.toInit(options.ibPort(), pkeyIndex, EnumSet.of(AccessFlag.REMOTE_WRITE));
                case RC -> qp.toInit(options.ibPort(), pkeyIndex, EnumSet.of(AccessFlag.REMOTE_WRITE, AccessFlag.REMOTE_READ,
                        AccessFlag.REMOTE_ATOMIC));
            }
            qps[i] = qp;
        }
        describeLocal();
    }

    /**
     * With {@code -R}: what to connect ({@code -q} connections, UD or RC), the sizes of the test's
     * queues (those {@link #create} makes; with {@code -e} on a completion channel), and perftest's
     * {@code rdma_conn_param}: READ/atomic depths for those tests, else 0. Retry count 6, not
     * perftest's 7 (see {@link #connect}), unless {@code --retry_count} gives it: its low byte, as
     * perftest's {@code rdma_conn_param} (a u8) holds it, at most 7, as the kernel's rdma_cm takes it.
     */
    CmTestConnection.Plan cmPlan(int receiveDepth) {
        int sendDepth = sendDepth();
        int depth = readOrAtomic() ? outReads() : 0;
        int count = options.queuePairs();
        ConnectionOptions connection = ConnectionOptions.builder().queueDepth(sendDepth, Math.max(receiveDepth, 1))
                .completionQueueSize((sendDepth + receiveDepth) * count + 16).maxSge(1).maxInlineData(options.inlineSize())
                .responderResources(depth).initiatorDepth(depth).connectTimeout(options.timeout())
                .completionChannel(options.events())
                .retryCount(options.link().retryCount() == LinkOptions.NOT_GIVEN ? ConnectionOptions.DEFAULT_RETRY_COUNT
                        : Math.min(7, options.link().retryCount() & 0xFF))
                .build();
        boolean datagram = options.connection() == Connection.UD;
        return new CmTestConnection.Plan(count, datagram, Schedule.clientSendsQpnDatagram(options), options.ibPort(),
                connection, options.link().completionVector());
    }

    /**
     * With {@code -R}: takes the protection domain, completion queue and queue pairs (in RTS)
     * rdma_cm made on the device it chose (on UD the address handle to the peer too), and
     * registers the buffer there.
     */
    void adopt(CmTestConnection connection, int maxSize, int cycleBuffer) {
        pd = connection.protectionDomain();
        cq = connection.completionQueue();
        qps = connection.queuePairs();
        addressHandle = connection.addressHandle();
        registerBuffer(maxSize, cycleBuffer);
        describeLocal();
    }

    private void registerBuffer(int maxSize, int cycleBuffer) {
        half = align(Math.max(maxSize, cycleBuffer) + (long) cycleBuffer, 4096);
        EnumSet<AccessFlag> access = EnumSet.of(AccessFlag.LOCAL_WRITE, AccessFlag.REMOTE_WRITE, AccessFlag.REMOTE_READ,
                AccessFlag.REMOTE_ATOMIC);
        buffer = pd.allocateMemoryRegion(2 * half, access);
    }

    private int sendDepth() {
        return Math.max(options.txDepth(), 1) * Math.max(options.postList(), 1);
    }

    private boolean readOrAtomic() {
        return options.test().verb() == TestKind.Verb.READ || options.test().verb() == TestKind.Verb.ATOMIC;
    }

    /**
     * perftest's outstanding READ/atomic depth ({@code ctx_set_out_reads}): {@code -o}, the
     * device's {@code max_qp_rd_atom} when not given or above it; 1 for the other tests.
     */
    private int outReads() {
        if (!readOrAtomic()) {
            return 1;
        }
        return outstandingReads(options.outReads(), context.queryDevice().maxQpRdAtom());
    }

    /** {@code ctx_set_out_reads}' rule: {@code requested} unless 0 or less, or above {@code deviceMax}: then the device's maximum (at least 1). */
    static int outstandingReads(int requested, int deviceMax) {
        int max = Math.max(1, deviceMax);
        return requested <= 0 || requested > max ? max : requested;
    }

    /**
     * perftest's notice when {@code -o} is above the device's maximum: its dashed line on
     * {@code out}, the words on {@code err}; nothing otherwise.
     */
    void noticeOutReads(java.io.PrintStream out, java.io.PrintStream err) {
        if (options.link().pkeyIndex() != pkeyIndex) {
            // perftest's check_link: after the outstanding reads' notice, its dashed line and its words
            out.print(dev.panamaverbs.perftest.report.ResultTable.LINE + "\n");
            err.println(" Specified PKey Index, " + options.link().pkeyIndex() + ", greater than allowed max, " + maxPkeyIndex());
            err.println(" Changing to 0");
        }
        if (!readOrAtomic()) {
            return;
        }
        int max = context.queryDevice().maxQpRdAtom();
        if (options.outReads() > max) {
            out.print(dev.panamaverbs.perftest.report.ResultTable.LINE + "\n");
            err.println(" Number of outstanding reads is above max = " + max);
            err.println(" Changing to that max value");
        }
    }

    /** This side's key messages, one per queue pair: its number, a random PSN, the target half of the buffer. */
    private void describeLocal() {
        inline = qps[0].capabilities().maxInlineData();
        outReads = outReads();
        psns = new int[qps.length];
        locals = new KeyMessage[qps.length];
        for (int i = 0; i < qps.length; i++) {
            psns[i] = ThreadLocalRandom.current().nextInt() & 0xFF_FFFF;
            locals[i] = new KeyMessage(port.lid(), outReads, qps[i].number(), psns[i], buffer.rkey(), buffer.iova() + half,
                    gid == null ? null : gid.gid(), 0);
        }
    }

    /** This side's key message of the first queue pair (the one perftest's hand shakes carry). */
    KeyMessage local() {
        return locals[0];
    }

    /** This side's key message of queue pair {@code index}. */
    KeyMessage local(int index) {
        return locals[index];
    }

    /**
     * perftest's {@code ctx_connect}: RTR towards {@code remote} at {@code mtu} (a GRH with our GID
     * index when we use GIDs, else the peer's LID), then RTS. Retry count 6, not perftest's 7: on
     * rxe 7 retries for ever, and a dead peer must end the run.
     */
    void connect(KeyMessage[] remotes, int mtu) {
        for (int i = 0; i < qps.length; i++) {
            connect(qps[i], psns[i], remotes[i], mtu);
        }
    }

    /** {@code --tclass} in a UD address handle's GRH, as perftest sets {@code ah_attr.grh.traffic_class}. */
    private AddressHandleAttributes withTrafficClass(AddressHandleAttributes global) {
        return global.withGlobalRoute(global.globalRoute().withTrafficClass(options.link().trafficClass()));
    }

    private void connect(QueuePair qp, int psn, KeyMessage remote, int mtu) {
        Mtu pathMtu = Mtu.of(mtu);
        if (options.connection() == Connection.UD) {
            AddressHandleAttributes attributes = (gid != null
                    ? withTrafficClass(AddressHandleAttributes.global(options.ibPort(), gid.index(), remote.gid()))
                    : AddressHandleAttributes.local(options.ibPort(), remote.lid())).withServiceLevel(options.serviceLevel());
            if (addressHandle == null) {
                addressHandle = pd.createAddressHandle(attributes);
            }
            qp.toRtr();
            qp.toRts(psn);
            return;
        }
        RemoteEndpoint endpoint = gid != null
                ? RemoteEndpoint.global(remote.qpn(), remote.psn(), remote.gid(), gid.index(), pathMtu).withHopLimit(0xFF)
                        .withTrafficClass(options.link().trafficClass())
                : RemoteEndpoint.local(remote.qpn(), remote.psn(), remote.lid(), pathMtu);
        endpoint = endpoint.withPort(options.ibPort()).withServiceLevel(options.serviceLevel());
        if (options.connection() == Connection.RC) {
            qp.toRtr(endpoint, new ReadyToReceiveOptions(outReads, 12));
            qp.toRts(new ReadyToSendOptions(psn, options.qpTimeout(), 6, 7, outReads));
        } else {
            qp.toRtr(endpoint);
            qp.toRts(psn);
        }
    }

    /** The first queue pair (the only one but with {@code -q}). */
    QueuePair queuePair() {
        return qps[0];
    }

    /** Every queue pair, in the order of their key messages. */
    QueuePair[] queuePairs() {
        return qps.clone();
    }

    CompletionQueue completionQueue() {
        return cq;
    }

    MemoryRegion buffer() {
        return buffer;
    }

    /** Where the peer's target half starts in our buffer. */
    long targetOffset() {
        return half;
    }

    /** The largest message the queue pair sends inline. */
    int maxInline() {
        return inline;
    }

    AddressHandle addressHandle() {
        return addressHandle;
    }

    private static long align(long value, long to) {
        return (value + to - 1) / to * to;
    }

    /** Closes every verbs object (the context closes what it holds; with {@code -R} the rdma_cm connection holds its own). */
    @Override
    public void close() {
        context.close();
    }
}
