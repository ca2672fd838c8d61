package dev.panamaverbs;

import dev.panamaverbs.internal.QueuePairTransitions;
import dev.panamaverbs.values.Errno;
import dev.panamaverbs.internal.NativeCalls;
import dev.panamaverbs.values.AccessFlag;
import dev.panamaverbs.values.EceOptions;
import dev.panamaverbs.values.ExtendedDeviceAttributes;
import dev.panamaverbs.values.Gid;
import dev.panamaverbs.values.QueuePairAttributeMask;
import dev.panamaverbs.values.QueuePairAttributes;
import dev.panamaverbs.values.QueuePairCapabilities;
import dev.panamaverbs.values.QueuePairState;
import dev.panamaverbs.values.QueuePairType;
import dev.panamaverbs.values.RateLimit;
import dev.panamaverbs.values.ReadyToReceiveOptions;
import dev.panamaverbs.values.ReadyToSendOptions;
import dev.panamaverbs.values.RemoteEndpoint;
import dev.panamaverbs.values.WorkRequestOpcode;
import dev.panamaverbs.gateway.IbverbsCalls;
import dev.panamaverbs.ffm.ibv_ece;
import dev.panamaverbs.ffm.ibv_qp;
import dev.panamaverbs.gateway.ObjectVerbs;
import dev.panamaverbs.ffm.ibv_qp_rate_limit_attr;
import dev.panamaverbs.gateway.OpsTable;
import dev.panamaverbs.ffm.invoke.CallState;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A queue pair (C {@code struct ibv_qp}): a send queue and a receive queue bound to one transport
 * (RC, UC, UD, or RAW_PACKET: whole Ethernet frames, SEND only; INIT takes the port alone,
 * {@code toInit(port, 0, Set.of())}, then {@link #toRtr()} and {@code toRts}). Created by
 * {@link ProtectionDomain#createQueuePair(QueuePairOptions)}; depends on
 * its protection domain, its completion queues and its shared receive queue, so closing any of
 * them closes the queue pair first ({@code ibv_destroy_qp}).
 *
 * <h2>State machine</h2>
 * A new queue pair is in RESET. The typed transitions {@link #toInit}, {@link #toRtr},
 * {@link #toRts}, {@link #toSqd}, {@link #resumeRts}, {@link #toError()} and {@link #toReset()} pass {@code ibv_modify_qp} exactly
 * the attribute mask the verbs require for the transport ({@link QueuePairTransitions}); a transition
 * not allowed from the current state is an {@link IllegalStateException} before any native call.
 * {@link #state()} is the last state the library set or read: the device moves a queue pair to
 * ERROR (or SQE) on its own, after a remote access error for one, and {@code state()} does not
 * see that until {@link #queryState()} or {@link #query()} asks the device.
 * {@link #modify(MemorySegment, Set)} is the raw escape hatch.
 *
 * <h2>Data path</h2>
 * {@link #postSend(SendWorkRequest)} and {@link #postReceive(ReceiveWorkRequest)} are one
 * provider call through the context's ops table on preallocated requests: no allocation. Several
 * threads may post to one queue pair at once (the provider serialises them), each with its own
 * requests; transitions and {@link #query()} are serialised on the queue pair. A queue pair
 * created with {@link QueuePairOptions.Builder#extendedSendOperations} also posts through the
 * extended post API ({@code ibv_wr_*}): {@link SendBatch}.
 */
public final class QueuePair extends VerbsResource {
    private final ProtectionDomain protectionDomain;
    private final QueuePairType type;
    private final int number;
    /** What the queue pair was created with (its completion queues and shared receive queue). */
    private final QueuePairOptions options;
    /** {@code options}' shared receive queue or null, in a plain field for the data path. */
    private final SharedReceiveQueue sharedReceiveQueue;
    private final QueuePairCapabilities capabilities;
    private final boolean extended;
    // Post-time limits, copied to plain fields so the data path reads no record or native memory.
    private final int maxReceiveSge;
    /** The send path every send goes through: limits, checks, holds and the downcall. */
    private final SendPath sendPath;
    private final MemorySegment postRecvFunction;
    /** Whether the posts go through critical downcalls ({@link Context#criticalPosts()}). */
    private final boolean criticalPosts;
    /**
     * The lock every post to the send queue of a queue pair with extended send operations holds
     * (each {@link SendBatch}'s {@code ibv_wr_start} ... {@code ibv_wr_complete}, and
     * {@link #postSend}): the provider's send queue lock, which a critical {@code ibv_wr_start}
     * takes, is then never contended. Null for a queue pair without extended send operations.
     */
    private final Object extendedSendLock;
    /** The multicast groups attached and not detached ({@link Multicast}), guarded by {@code this}. */
    private final java.util.List<Multicast.Group> multicastGroups = new java.util.ArrayList<>(0);
    /** The extended send queue ({@code ibv_qp_ex}), resolved by the first {@link SendBatch}. */
    private ExtendedSendQueue extendedSendQueue;
    /** Transitions, raw modify and query, and the state they leave behind. */
    private final QueuePairStateMachine stateMachine;
    /** {@code rdma_destroy_qp} for a queue pair librdmacm made ({@code rdma_create_qp}); null for an ordinary one. */
    private final Runnable destroyThroughConnectionManager;


    /** Over a created {@code ibv_qp}; the protection domain's create calls it, then {@link #register()}. */
    QueuePair(ProtectionDomain pd, QueuePairOptions options, MemorySegment handle,
              QueuePairCapabilities granted, boolean extended) {
        this(pd, options, handle, granted, extended, null);
    }

    /**
     * Over a queue pair {@code rdma_create_qp} created on {@code connectionId} (null: an ordinary
     * one): destroyed through {@code rdma_destroy_qp}, so librdmacm forgets it too.
     */
    QueuePair(ProtectionDomain pd, QueuePairOptions options, MemorySegment handle,
              QueuePairCapabilities granted, boolean extended, Runnable destroyThroughConnectionManager) {
        super("QueuePair", handle, options.dependencies(pd));
        this.protectionDomain = pd;
        this.type = options.type();
        this.number = ibv_qp.qp_num(handle);
        this.options = options;
        this.sharedReceiveQueue = options.sharedReceiveQueue().orElse(null);
        this.capabilities = granted;
        this.extended = extended;
        this.maxReceiveSge = granted.maxReceiveSge();
        this.postRecvFunction = NativeCalls.resolveOrNull(OpsTable::resolvePostRecv, handle.address());
        this.criticalPosts = pd.context().postsCritical();
        this.extendedSendLock = options.extendedSendOperations().isEmpty() ? null : new Object();
        this.stateMachine = new QueuePairStateMachine(this, number, pd.context(), type);
        this.destroyThroughConnectionManager = destroyThroughConnectionManager;
        // A queue pair of an rdma_cm identifier has no state check: librdmacm moves its states itself.
        this.sendPath = SendPath.of(this, destroyThroughConnectionManager == null ? stateMachine : null,
                SendPath.Limits.granted(type, granted, pd),
                NativeCalls.resolveOrNull(OpsTable::resolvePostSend, handle.address()), criticalPosts, extendedSendLock);
    }

    /** {@link #extendedSendLock}: null without extended send operations. */
    Object extendedSendLock() {
        return extendedSendLock;
    }

    // ---- creation (hook of ProtectionDomain.createQueuePair) ----

    /**
     * {@code ibv_destroy_qp}, or {@code rdma_destroy_qp} for a queue pair of an rdma_cm identifier;
     * multicast groups still attached are detached first.
     */
    @Override
    protected void destroy() {
        synchronized (this) {
            Multicast.detachAll(handleSegment(), multicastGroups);
        }
        if (destroyThroughConnectionManager != null) {
            destroyThroughConnectionManager.run();
            return;
        }
        NativeCalls.destroy("ibv_destroy_qp", IbverbsCalls::ibv_destroy_qp, handleSegment());
    }

    @Override
    protected String describe() {
        return "qpn=" + number + ", " + type;
    }

    // ---- identity ----

    /**
     * {@code qp_num}: the number the peer addresses this queue pair by.
     *
     * @return {@code qp_num}: the number the peer addresses this queue pair by
     */
    public int number() {
        return number;
    }

    /**
     * {@code qp_type}.
     *
     * @return {@code qp_type}
     */
    public QueuePairType type() {
        return type;
    }

    /**
     * The last state the library set or read, without a native call: the state after the last
     * transition made through this object, {@link #queryState()} or {@link #query()} (or, for a
     * queue pair of an rdma_cm identifier, the one librdmacm moved it to: INIT at creation, RTS
     * once established, ERROR after a disconnect). The device moves a queue pair to ERROR on its
     * own (a remote access error, retries exhausted): this keeps saying RTS until
     * {@link #queryState()} asks the device.
     *
     * @return the last state the library set or read
     */
    public QueuePairState state() {
        return stateMachine.state();
    }

    /**
     * {@code ibv_query_qp} for {@code qp_state} only: the state the device has the queue pair in
     * now, which {@link #state()} returns from then on.
     *
     * @return the device's current state of this queue pair ({@link QueuePairState#UNKNOWN} for a value
     *         this version does not know)
     * @throws VerbsException if the verb fails
     * @throws IllegalStateException if closed
     */
    public synchronized QueuePairState queryState() {
        return stateMachine.queryState();
    }


    /** Records a state librdmacm moved the queue pair to (rdma_cm drives its transitions). */
    void assumeState(QueuePairState state) {
        stateMachine.assume(state);
    }

    /**
     * The protection domain ({@code ibv_qp.pd}).
     *
     * @return the protection domain ({@code ibv_qp.pd})
     */
    public ProtectionDomain protectionDomain() {
        return protectionDomain;
    }

    /**
     * The queue send completions go to ({@code send_cq}).
     *
     * @return the queue send completions go to ({@code send_cq})
     */
    public CompletionQueue sendCompletionQueue() {
        return options.sendCompletionQueue();
    }

    /**
     * The queue receive completions go to ({@code recv_cq}).
     *
     * @return the queue receive completions go to ({@code recv_cq})
     */
    public CompletionQueue receiveCompletionQueue() {
        return options.receiveCompletionQueue();
    }

    /**
     * The shared receive queue receives come from ({@code srq}), if any.
     *
     * @return the shared receive queue receives come from ({@code srq}), if any
     */
    public Optional<SharedReceiveQueue> sharedReceiveQueue() {
        return options.sharedReceiveQueue();
    }

    /**
     * The queue sizes the provider granted at creation (at least what was asked).
     *
     * @return the queue sizes the provider granted at creation (at least what was asked)
     */
    public QueuePairCapabilities capabilities() {
        return capabilities;
    }

    /**
     * True when created through {@code ibv_create_qp_ex} (the handle is then a {@code struct ibv_qp_ex}).
     *
     * @return true when created through {@code ibv_create_qp_ex} (the handle is then a {@code struct ibv_qp_ex})
     */
    public boolean isExtended() {
        return extended;
    }

    /**
     * The operations the extended post API ({@link SendBatch}) may use on this queue pair: its
     * {@code send_ops_flags} ({@link QueuePairOptions#extendedSendOperations()}); empty when
     * created without them.
     *
     * @return the extended send operations
     */
    public Set<WorkRequestOpcode> extendedSendOperations() {
        return options.extendedSendOperations();
    }

    /** {@link ExtendedSendQueue#resolve}, once (control path: each {@link SendBatch} asks at allocation). */
    synchronized ExtendedSendQueue extendedSendQueue() {
        if (extendedSendQueue == null) {
            extendedSendQueue = ExtendedSendQueue.resolve(this, options);
        }
        return extendedSendQueue;
    }

    // ---- typed transitions ----

    /**
     * RESET (or INIT) -> INIT for RC and UC: {@code ibv_modify_qp} with
     * {@code STATE | PKEY_INDEX | PORT | ACCESS_FLAGS}; for RAW_PACKET {@code STATE | PORT}
     * (no access flags allowed, the P_Key index unused).
     *
     * @param port       the local port, from 1
     * @param pkeyIndex  the P_Key table index (0 for the default partition)
     * @param access     what the remote side may do: {@link AccessFlag#REMOTE_WRITE},
     *                   {@link AccessFlag#REMOTE_READ}, {@link AccessFlag#REMOTE_ATOMIC} (RC only for the last two)
     * @throws IllegalArgumentException for UD (use {@link #toInit(int, int, int)}) or a bad argument
     * @throws IllegalStateException if the queue pair is not in RESET or INIT, or closed
     */
    public synchronized void toInit(int port, int pkeyIndex, Set<AccessFlag> access) {
        stateMachine.toInit(port, pkeyIndex, access);
    }

    /**
     * {@link #toInit(int, int, Set)} with P_Key index 0.
     *
     * @param port the port number (1-based)
     * @param access the access flags
     */
    public void toInit(int port, Set<AccessFlag> access) {
        toInit(port, 0, access);
    }

    /**
     * RESET (or INIT) -> INIT for UD: {@code ibv_modify_qp} with {@code STATE | PKEY_INDEX | PORT | QKEY}.
     *
     * @param qkey the Q_Key datagrams to this queue pair must carry (unsigned 32 bits)
     * @throws IllegalArgumentException for RC/UC (use {@link #toInit(int, int, Set)}) or a bad argument
     * @throws IllegalStateException if the queue pair is not in RESET or INIT, or closed
     * @param port the port number (1-based)
     * @param pkeyIndex the P_Key index
     */
    public synchronized void toInit(int port, int pkeyIndex, int qkey) {
        stateMachine.toInit(port, pkeyIndex, qkey);
    }

    /**
     * {@link #toRtr(RemoteEndpoint, ReadyToReceiveOptions)} with {@link ReadyToReceiveOptions#defaults()}.
     *
     * @param remote the remote endpoint
     */
    public void toRtr(RemoteEndpoint remote) {
        toRtr(remote, ReadyToReceiveOptions.defaults());
    }

    /**
     * INIT -> RTR for RC and UC: {@code ibv_modify_qp} with {@code STATE | AV | PATH_MTU |
     * DEST_QPN | RQ_PSN}, plus {@code MAX_DEST_RD_ATOMIC | MIN_RNR_TIMER} for RC. The address
     * vector uses the INIT port unless {@code remote} names one.
     *
     * @throws IllegalArgumentException for UD and RAW_PACKET (use {@link #toRtr()}), a RoCE port without a remote
     *         GID, a path MTU above the port's active MTU, or a read/atomic depth above the device's
     * @throws IllegalStateException if the queue pair is not in INIT, or closed
     * @param remote the remote endpoint
     * @param options the path MTU, receive PSN, read/atomic depth and RNR timer to set
     */
    public synchronized void toRtr(RemoteEndpoint remote, ReadyToReceiveOptions options) {
        stateMachine.toRtr(remote, options);
    }

    /**
     * INIT -> RTR for UD and RAW_PACKET: {@code ibv_modify_qp} with {@code STATE} only.
     *
     * @throws IllegalArgumentException for RC/UC (use {@link #toRtr(RemoteEndpoint)})
     * @throws IllegalStateException if the queue pair is not in INIT, or closed
     */
    public synchronized void toRtr() {
        stateMachine.toRtr();
    }

    /** {@link #toRts(ReadyToSendOptions)} with {@link ReadyToSendOptions#defaults()} (send PSN 0). */
    public void toRts() {
        toRts(ReadyToSendOptions.defaults());
    }

    /**
     * {@link #toRts(ReadyToSendOptions)} with the defaults and send PSN {@code sqPsn}.
     *
     * @param sqPsn the send queue's initial packet sequence number
     */
    public void toRts(int sqPsn) {
        toRts(ReadyToSendOptions.withPsn(sqPsn));
    }

    /**
     * RTR -> RTS: {@code ibv_modify_qp} with {@code STATE | SQ_PSN}, plus {@code TIMEOUT |
     * RETRY_CNT | RNR_RETRY | MAX_QP_RD_ATOMIC} for RC.
     *
     * @throws IllegalArgumentException if the read/atomic depth exceeds the device's {@code max_qp_init_rd_atom}
     * @throws IllegalStateException if the queue pair is not in RTR (from RTS, SQD or SQE use
     *         {@link #resumeRts()}: those moves take none of these attributes), or closed
     * @param options the send PSN, timeout, retry counts and read/atomic depth to set
     */
    public synchronized void toRts(ReadyToSendOptions options) {
        stateMachine.toRts(options);
    }

    /**
     * RTS -> SQD: {@code ibv_modify_qp} with {@code STATE}, plus {@code EN_SQD_ASYNC_NOTIFY} when
     * {@code asyncNotify} (the device then raises {@code IBV_EVENT_SQ_DRAINED} once the send queue
     * has drained). Not every provider implements SQD (rxe answers EINVAL).
     *
     * @throws IllegalStateException if the queue pair is not in RTS, or closed
     * @throws VerbsException if the provider refuses
     * @param asyncNotify true to get an async event
     */
    public synchronized void toSqd(boolean asyncNotify) {
        stateMachine.toSqd(asyncNotify);
    }

    /** {@link #toSqd(boolean)} without the drained event. */
    public void toSqd() {
        toSqd(false);
    }

    /**
     * RTS -> RTS, SQD -> RTS or SQE -> RTS: {@code ibv_modify_qp} with {@code STATE} only (the
     * send queue resumes). {@link #state()} only knows the states this object moved to: a queue
     * pair the device put in SQE reads RTS here, which this call accepts as well.
     *
     * @throws IllegalStateException if the queue pair is not in RTS, SQD or SQE, or closed
     */
    public synchronized void resumeRts() {
        stateMachine.resumeRts();
    }

    /**
     * RC, RTS -> RTS or SQD -> RTS changing {@code min_rnr_timer} (the RNR NAK delay code this
     * side asks for): {@code ibv_modify_qp} with {@code STATE | MIN_RNR_TIMER}, the optional
     * attribute those moves allow.
     *
     * @throws IllegalArgumentException for UC/UD, or {@code minRnrTimer} not in 0..31
     * @throws IllegalStateException if the queue pair is not in RTS or SQD, or closed
     * @param minRnrTimer the minimum RNR NAK timer
     */
    public synchronized void resumeRts(int minRnrTimer) {
        stateMachine.resumeRts(minRnrTimer);
    }

    /**
     * Any state but RESET -> ERROR: {@code ibv_modify_qp} with {@code STATE}. Outstanding work
     * requests complete with a flush error.
     *
     * @throws IllegalStateException in RESET (the verbs do not allow RESET -> ERROR), or closed
     */
    public synchronized void toError() {
        stateMachine.toError();
    }

    /**
     * Any state -> RESET: {@code ibv_modify_qp} with {@code STATE}. Both queues are emptied
     * without completions; the queue pair can go through INIT again.
     *
     * @throws IllegalStateException if closed
     */
    public synchronized void toReset() {
        stateMachine.toReset();
    }

    // ---- multicast ----

    /**
     * {@code ibv_attach_mcast}: this UD queue pair receives the datagrams sent to the multicast
     * group {@code group} (send to it with remote QPN {@code 0xFFFFFF}). On RoCE the group is a
     * multicast GID ({@code ff..} or, for RoCE v2 over IPv4, an IPv4-mapped 224.0.0.0/4 address)
     * and {@code lid} is 0. Closing the queue pair detaches the groups still attached.
     *
     * @param group the multicast group's GID
     * @param lid   the group's multicast LID on InfiniBand (0xC000..0xFFFE), 0 on RoCE
     * @throws IllegalArgumentException if this queue pair is not UD, {@code group} is not a
     *         multicast GID, or {@code lid} is not a uint16_t
     * @throws VerbsException if the verb fails
     */
    public synchronized void attachMulticast(Gid group, int lid) {
        Multicast.call("ibv_attach_mcast", this, type, multicastGroups, group, lid);
    }

    /**
     * {@code ibv_detach_mcast}: stops receiving the datagrams of {@code group}.
     *
     * @param group the multicast group's GID, as attached
     * @param lid   the LID it was attached with
     * @throws IllegalArgumentException as {@link #attachMulticast}
     * @throws VerbsException if the verb fails (EINVAL when not attached, on most providers)
     */
    public synchronized void detachMulticast(Gid group, int lid) {
        Multicast.call("ibv_detach_mcast", this, type, multicastGroups, group, lid);
    }

    // ---- raw modify and query ----

    /**
     * {@code ibv_modify_qp(qp, attr, mask)} with a caller-filled {@code struct ibv_qp_attr}: the
     * escape hatch for what the typed transitions do not cover (SQD -> SQD, alternate paths,
     * rate limits, RTS -> RTS changes other than min_rnr_timer). No state-machine checks; when {@code mask} has
     * {@link QueuePairAttributeMask#STATE}, {@link #state()} follows {@code attr.qp_state} on success.
     *
     * @throws IllegalArgumentException if {@code attr} is smaller than {@code struct ibv_qp_attr} or the mask is empty
     * @throws VerbsException if the verb fails
     * @param attr the attributes
     * @param mask which of {@code attr}'s fields to apply ({@code attr_mask})
     */
    public synchronized void modify(MemorySegment attr, Set<QueuePairAttributeMask> mask) {
        stateMachine.modify(attr, mask);
    }

    /**
     * {@code ibv_query_qp} with every attribute: the device's view of this queue pair. Also
     * refreshes {@link #state()}.
     *
     * @throws VerbsException if the verb fails
     * @throws IllegalStateException if closed
     * @return {@code ibv_query_qp} with every attribute: the device's view of this queue pair
     */
    public synchronized QueuePairAttributes query() {
        return stateMachine.query();
    }

    /**
     * {@code ibv_query_qp_data_in_order} (flags 0): whether the data of {@code opcode} requests on
     * this queue pair is written to memory in order, so that a receiver may poll the last byte
     * of a message instead of waiting for its completion.
     *
     * @param opcode the operation asked about
     * @return true when the provider guarantees in-order placement, false otherwise (also when it
     *         does not know)
     * @throws VerbsUnsupportedException when libibverbs is older than 1.14
     *         ({@link Capability#QUERY_QP_DATA_IN_ORDER})
     * @throws IllegalStateException if closed
     */
    public boolean dataInOrder(WorkRequestOpcode opcode) {
        Objects.requireNonNull(opcode, "ibv_query_qp_data_in_order: op");
        Capability.QUERY_QP_DATA_IN_ORDER.require("ibv_query_qp_data_in_order");
        acquire();
        try (Arena arena = Arena.ofConfined()) {
            return IbverbsCalls.ibv_query_qp_data_in_order(CallState.allocate(arena), handleSegment(), opcode.value(), 0) == 1;
        } finally {
            release();
        }
    }

    /**
     * {@code ibv_query_ece}: the enhanced connection establishment options this queue pair
     * currently holds (those the provider proposes before connecting, the accepted ones after).
     *
     * @return the options
     * @throws VerbsUnsupportedException when the provider does not implement ECE (its errno, e.g.
     *         EOPNOTSUPP), or libibverbs is older than 1.10 ({@link Capability#ECE})
     * @throws VerbsException with the provider's errno on another failure
     * @throws IllegalStateException if closed
     */
    public EceOptions queryEce() {
        Capability.ECE.require("ibv_query_ece");
        acquire();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment ece = arena.allocate(ibv_ece.LAYOUT);
            checkEce("ibv_query_ece", ObjectVerbs.queryEce(handleAddress(), ece.address()));
            return new EceOptions(ibv_ece.vendor_id(ece), ibv_ece.options(ece));
        } finally {
            release();
        }
    }

    /**
     * {@code ibv_modify_qp_rate_limit}: paces this queue pair's sends (packet pacing). The device's
     * range and the queue pair types it paces are {@link ExtendedDeviceAttributes#packetPacing()};
     * the provider checks them. SoftRoCE has no packet pacing ({@link VerbsUnsupportedException},
     * EOPNOTSUPP).
     *
     * @param limit the limit; {@code RateLimit.ofKbps(0)} removes it
     * @throws VerbsUnsupportedException if the provider has no packet pacing
     * @throws VerbsException if the verb fails otherwise (e.g. EINVAL: out of the device's range)
     * @throws IllegalStateException if closed
     */
    public void limitRate(RateLimit limit) {
        Objects.requireNonNull(limit, "ibv_modify_qp_rate_limit: limit is null");
        acquire();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment attr = arena.allocate(ibv_qp_rate_limit_attr.LAYOUT);
            ibv_qp_rate_limit_attr.rate_limit(attr, (int) limit.kbps());
            ibv_qp_rate_limit_attr.max_burst_sz(attr, (int) limit.maxBurstBytes());
            ibv_qp_rate_limit_attr.typical_pkt_sz(attr, (short) limit.typicalPacketBytes());
            NativeCalls.checkReturnedErrno("ibv_modify_qp_rate_limit",
                    IbverbsCalls.ibv_modify_qp_rate_limit(handleAddress(), attr.address()));
        } finally {
            release();
        }
    }

    /**
     * {@code ibv_set_ece}: offers {@code ece} for the connection this queue pair makes (call
     * before it moves to RTR; {@code comp_mask} is 0).
     *
     * @param ece the options to offer
     * @throws VerbsUnsupportedException when the provider does not implement ECE (its errno, e.g.
     *         EOPNOTSUPP), or libibverbs is older than 1.10 ({@link Capability#ECE})
     * @throws VerbsException with the provider's errno on another failure (EINVAL: options the
     *         device does not support)
     * @throws IllegalStateException if closed
     */
    public void setEce(EceOptions ece) {
        Objects.requireNonNull(ece, "ibv_set_ece: ece");
        Capability.ECE.require("ibv_set_ece");
        acquire();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment native_ = arena.allocate(ibv_ece.LAYOUT);
            ibv_ece.vendor_id(native_, ece.vendorId());
            ibv_ece.options(native_, ece.options());
            ibv_ece.comp_mask(native_, 0);
            checkEce("ibv_set_ece", ObjectVerbs.setEce(handleAddress(), native_.address()));
        } finally {
            release();
        }
    }

    private static void checkEce(String verb, int rc) {
        if (rc != 0 && Errno.meansUnsupported(Math.abs(rc))) {
            throw new VerbsUnsupportedException(verb, Math.abs(rc));
        }
        NativeCalls.checkReturnedErrno(verb, rc);
    }

    /**
     * {@code ibv_create_flow}: steers the packets of {@code rule} to this queue pair (flow
     * steering, usually with raw packet queue pairs, which are not created yet: {@link QueuePairType}).
     * SoftRoCE has no flow steering ({@link VerbsUnsupportedException}, EOPNOTSUPP).
     *
     * @param rule the packets to steer
     * @return the installed flow; closing this queue pair closes it first
     * @throws IllegalArgumentException if the rule's counters are of another context
     * @throws VerbsUnsupportedException if the provider has no flow steering
     * @throws VerbsException if the verb fails otherwise
     */
    public Flow createFlow(FlowRule rule) {
        return Flow.create(this, protectionDomain, rule);
    }

    // ---- data path ----

    /**
     * {@code ibv_post_send}: posts {@code request} and every request chained after it. One
     * provider call, no allocation; the checks before it are a few int compares per request.
     *
     * @throws IllegalArgumentException naming {@code ibv_post_send} and the wr_id when a request
     *         does not fit this queue pair (opcode vs transport, entries, inline size, atomics, an
     *         opcode SendWorkRequest cannot fill, a BIND_MW not built by
     *         {@link SendWorkRequest#bindMemoryWindow}, a region of another protection
     *         domain, a UD send's address handle of another protection domain or context, an
     *         INLINE entry from a region registered at a distinct iova or over a file mapping,
     *         whose truncated file would make the provider's copy die with SIGBUS)
     * @throws IllegalStateException if this queue pair, a request's arena, an entry's memory region
     *         (or for INLINE its memory) or its address handle is closed, or, for a queue pair not
     *         of an rdma_cm identifier, when {@link #state()} is RESET, INIT or RTR (a send needs
     *         RTS; SQD, SQE and ERROR accept it, the last two flushing it), or when a request
     *         whose resources the post holds (UD, INLINE from a region, BIND_MW, LOCAL_INV) is
     *         being posted by another thread at the same moment
     * @throws VerbsException naming the refused request's wr_id when the provider refuses
     *         (e.g. ENOMEM: send queue full)
     * @param request the work request
     */
    public void postSend(SendWorkRequest request) {
        sendPath.post(request);
    }

    /** The send path {@link #postSend} and {@link SendBatch} post through. */
    SendPath sendPath() {
        return sendPath;
    }

    /**
     * {@code ibv_post_recv}: posts {@code request} and every request chained after it to this
     * queue pair's receive queue. One provider call, no allocation.
     *
     * @throws IllegalStateException if the queue pair uses a shared receive queue (post there), or
     *         this queue pair, a request's arena or an entry's memory region is closed, or, for a
     *         queue pair not of an rdma_cm identifier, when {@link #state()} is RESET (any other
     *         state accepts a receive; ERROR flushes it)
     * @throws IllegalArgumentException if a request has more entries than {@code max_recv_sge}, or
     *         an entry's region belongs to another protection domain
     * @throws VerbsException naming the refused request's wr_id when the provider refuses
     * @param request the work request
     */
    public void postReceive(ReceiveWorkRequest request) {
        if (sharedReceiveQueue != null) {
            throw new IllegalStateException(ReceiveWorkRequest.VERB + ": " + this
                    + " receives from " + sharedReceiveQueue + ": post receive requests there");
        }
        acquire();
        try {
            if (destroyThroughConnectionManager == null) {
                QueuePairTransitions.requirePostable(ReceiveWorkRequest.VERB, false, this, stateMachine.state());
            }
            WorkRequestChecks.checkReceiveChain(ReceiveWorkRequest.VERB, request, maxReceiveSge,
                    "the queue pair's max_recv_sge", protectionDomain);
            request.clearBadRequest();
            if (postRecvFunction == null) {
                throw NativeCalls.missingOp("ibv_post_recv", "post_recv");
            }
            int rc = OpsTable.postRecv(postRecvFunction, handleSegment(),
                    request.nativeRequest(), request.badRequestSlot(), criticalPosts);
            if (rc != 0) {
                throw NativeCalls.postFailure(ReceiveWorkRequest.VERB, rc, request.describeBadRequest());
            }
        } finally {
            release();
        }
    }
}
