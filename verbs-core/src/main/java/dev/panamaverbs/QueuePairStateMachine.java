package dev.panamaverbs;

import dev.panamaverbs.internal.QueuePairTransitions;
import dev.panamaverbs.jfr.FlightEvents;
import dev.panamaverbs.internal.Ranges;
import dev.panamaverbs.internal.NativeCalls;
import dev.panamaverbs.values.AccessFlag;
import dev.panamaverbs.values.BitFlag;
import dev.panamaverbs.values.QueuePairAttributeMask;
import dev.panamaverbs.values.QueuePairAttributes;
import dev.panamaverbs.values.QueuePairState;
import dev.panamaverbs.values.QueuePairType;
import dev.panamaverbs.values.ReadyToReceiveOptions;
import dev.panamaverbs.values.ReadyToSendOptions;
import dev.panamaverbs.values.RemoteEndpoint;
import dev.panamaverbs.ffm.ibv_qp_attr;
import dev.panamaverbs.ffm.ibv_qp_init_attr;
import dev.panamaverbs.ffm.invoke.CallState;
import dev.panamaverbs.gateway.IbverbsCalls;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The state machine of one {@link QueuePair}: the typed transitions, the raw {@code ibv_modify_qp}
 * and {@code ibv_query_qp}, and the state and INIT port they leave behind. Builds each
 * {@code struct ibv_qp_attr} and its mask ({@link QueuePairTransitionAttributes}, {@link QueuePairTransitions}).
 * Not synchronised itself: {@link QueuePair}'s public methods call it holding the queue pair's lock.
 */
final class QueuePairStateMachine {
    private static final Logger LOG = LoggerFactory.getLogger("dev.panamaverbs.QueuePair"); // its queue pair's logger
    private static final String MODIFY = QueuePairTransitionAttributes.MODIFY;
    /** Every attribute {@code ibv_query_qp} can report (rate limit left out: few providers answer it). */
    private static final int QUERY_MASK = BitFlag.toBits(EnumSet.complementOf(EnumSet.of(QueuePairAttributeMask.RATE_LIMIT)));

    /** The queue pair, held as the resource: the machine needs its handle, liveness and name only. */
    private final VerbsResource qp;
    /** The queue pair's number, for the flight recorder's events. */
    private final int number;
    private final Context context;
    private final QueuePairType type;
    /** The last state set or read; {@link SendPath} reads the field itself, so a post runs no code here. */
    volatile QueuePairState state = QueuePairState.RESET;
    /** The port given to the last INIT transition (0: unknown), the default for the RTR address vector. */
    private int port;


    QueuePairStateMachine(VerbsResource qp, int number, Context context, QueuePairType type) {
        this.qp = qp;
        this.number = number;
        this.context = context;
        this.type = type;
    }

    QueuePairState state() {
        return state;
    }

    /** Records a state reached outside this object (librdmacm's own {@code ibv_modify_qp}). */
    void assume(QueuePairState reached) {
        enter(reached, "rdma_cm");
    }

    /**
     * Sets the known state, and records a {@code dev.panamaverbs.QueuePairStateChange} JFR event
     * (plus {@code QueuePairError} for ERROR and SQE) when it differs from the one before.
     */
    private void enter(QueuePairState next, String cause) {
        QueuePairState previous = state;
        state = next;
        if (previous != next) {
            FlightEvents.queuePairStateChange(context.device().name(), number, type.name(), previous.name(),
                    next.name(), cause);
        }
    }

    // ---- typed transitions ----

    void toInit(int port, int pkeyIndex, Set<AccessFlag> access) {
        int accessBits = QueuePairTransitionAttributes.accessBits(type, access);
        transitionToInit(port, pkeyIndex, attr -> ibv_qp_attr.qp_access_flags(attr, accessBits));
    }

    void toInit(int port, int pkeyIndex, int qkey) {
        if (type != QueuePairType.UD) {
            throw new IllegalArgumentException(MODIFY + ": a Q_Key at INIT is for UD queue pairs; " + type
                    + " takes access flags: use toInit(port, pkeyIndex, access)");
        }
        transitionToInit(port, pkeyIndex, attr -> ibv_qp_attr.qkey(attr, qkey));
    }

    private void transitionToInit(int port, int pkeyIndex, Consumer<MemorySegment> transportPart) {
        QueuePairTransitionAttributes.checkInit(port, pkeyIndex, context.maxAttributes().physicalPortCount());
        QueuePairTransitions.requireTypedTransition(qp, state, QueuePairState.INIT);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment attr = arena.allocate(ibv_qp_attr.LAYOUT);
            QueuePairTransitionAttributes.writeInit(attr, port, pkeyIndex);
            transportPart.accept(attr);
            modifyNative(arena, attr, QueuePairTransitions.maskFor(type, QueuePairState.INIT));
        }
        this.port = port;
        enter(QueuePairState.INIT, MODIFY);
    }

    void toRtr(RemoteEndpoint remote, ReadyToReceiveOptions options) {
        Objects.requireNonNull(remote, MODIFY + ": remote endpoint");
        Objects.requireNonNull(options, MODIFY + ": options");
        if (type == QueuePairType.UD || type == QueuePairType.RAW_PACKET) {
            throw new IllegalArgumentException(MODIFY + ": a " + type + " queue pair has no remote endpoint: use toRtr()");
        }
        QueuePairTransitions.requireTypedTransition(qp, state, QueuePairState.RTR);
        int avPort = remote.port() != 0 ? remote.port() : port != 0 ? port : query().port();
        QueuePairTransitionAttributes.checkRemote(remote, avPort, context.queryPort(avPort));
        int maxDestReadAtomic = QueuePairTransitionAttributes.readAtomicDepth("max_dest_rd_atomic",
                options.maxDestReadAtomic(), "max_qp_rd_atom", context.maxAttributes().maxQpRdAtom());
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment attr = arena.allocate(ibv_qp_attr.LAYOUT);
            QueuePairTransitionAttributes.writeRtr(attr, type, remote, avPort, maxDestReadAtomic, options.minRnrTimer());
            modifyNative(arena, attr, QueuePairTransitions.maskFor(type, QueuePairState.RTR));
        }
        enter(QueuePairState.RTR, MODIFY);
    }

    void toRtr() {
        if (type != QueuePairType.UD && type != QueuePairType.RAW_PACKET) {
            throw new IllegalArgumentException(MODIFY + ": a " + type + " queue pair needs its remote endpoint: use toRtr(remote)");
        }
        transitionStateOnly(QueuePairState.RTR);
    }

    void toRts(ReadyToSendOptions options) {
        Objects.requireNonNull(options, MODIFY + ": options");
        QueuePairTransitions.requireTypedTransition(qp, state, QueuePairState.RTS);
        if (state != QueuePairState.RTR) {
            throw new IllegalStateException(MODIFY + ": " + qp + " is in " + state + "; " + state
                    + " -> RTS takes none of sq_psn, timeout, retry_cnt, rnr_retry, max_rd_atomic: use resumeRts()");
        }
        if (options.retriesForEverOn(context.maxAttributes().vendorId())) {
            LOG.warn("{}: retry_cnt 7 on SoftRoCE (rxe) retries for ever: a request to a peer that died never completes"
                    + " (6 or less fails it after (retry_cnt + 1) ACK timeouts)", qp);
        }
        int maxReadAtomic = QueuePairTransitionAttributes.readAtomicDepth("max_rd_atomic", options.maxReadAtomic(),
                "max_qp_init_rd_atom", context.maxAttributes().maxQpInitRdAtom());
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment attr = arena.allocate(ibv_qp_attr.LAYOUT);
            QueuePairTransitionAttributes.writeRts(attr, type, options, maxReadAtomic);
            modifyNative(arena, attr, QueuePairTransitions.maskFor(type, QueuePairState.RTS));
        }
        enter(QueuePairState.RTS, MODIFY);
    }

    void toSqd(boolean asyncNotify) {
        QueuePairTransitions.requireTypedTransport(type);
        QueuePairTransitions.requireTypedTransition(qp, state, QueuePairState.SQD);
        int mask = QueuePairTransitions.maskFor(type, state, QueuePairState.SQD);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment attr = arena.allocate(ibv_qp_attr.LAYOUT);
            ibv_qp_attr.qp_state(attr, QueuePairState.SQD.value());
            if (asyncNotify) {
                ibv_qp_attr.en_sqd_async_notify(attr, (byte) 1);
                mask |= QueuePairAttributeMask.SQD_ASYNC_NOTIFY.bit();
            }
            modifyNative(arena, attr, mask);
        }
        enter(QueuePairState.SQD, MODIFY);
    }

    void resumeRts() {
        QueuePairTransitions.requireTypedTransport(type);
        requireResumable();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment attr = arena.allocate(ibv_qp_attr.LAYOUT);
            ibv_qp_attr.qp_state(attr, QueuePairState.RTS.value());
            modifyNative(arena, attr, QueuePairTransitions.maskFor(type, state, QueuePairState.RTS));
        }
        enter(QueuePairState.RTS, MODIFY);
    }

    void resumeRts(int minRnrTimer) {
        if (type != QueuePairType.RC) {
            throw new IllegalArgumentException(MODIFY + ": min_rnr_timer is an RC attribute, not " + type);
        }
        Ranges.require("ibv_modify_qp", "min_rnr_timer", minRnrTimer, 0, 31);
        requireResumable();
        if (state == QueuePairState.SQE) {
            throw new IllegalStateException(MODIFY + ": " + qp + " is in SQE, which RC does not have");
        }
        int mask = QueuePairTransitions.maskFor(type, state, QueuePairState.RTS)
                | (QueuePairTransitions.optionalMaskFor(type, state, QueuePairState.RTS) & QueuePairAttributeMask.MIN_RNR_TIMER.bit());
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment attr = arena.allocate(ibv_qp_attr.LAYOUT);
            ibv_qp_attr.qp_state(attr, QueuePairState.RTS.value());
            ibv_qp_attr.min_rnr_timer(attr, (byte) minRnrTimer);
            modifyNative(arena, attr, mask);
        }
        enter(QueuePairState.RTS, MODIFY);
    }

    private void requireResumable() {
        if (state != QueuePairState.RTS && state != QueuePairState.SQD && state != QueuePairState.SQE) {
            throw new IllegalStateException(MODIFY + ": " + qp + " cannot resume RTS from " + state
                    + " (resumeRts runs from RTS, SQD or SQE; from RTR use toRts)");
        }
    }

    void toError() {
        transitionStateOnly(QueuePairState.ERROR);
    }

    void toReset() {
        transitionStateOnly(QueuePairState.RESET);
        port = 0;
    }

    private void transitionStateOnly(QueuePairState target) {
        QueuePairTransitions.requireTypedTransport(type);
        QueuePairTransitions.requireTypedTransition(qp, state, target);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment attr = arena.allocate(ibv_qp_attr.LAYOUT);
            ibv_qp_attr.qp_state(attr, target.value());
            modifyNative(arena, attr, QueuePairTransitions.maskFor(type, target));
        }
        enter(target, MODIFY);
    }

    // ---- raw modify and query ----

    void modify(MemorySegment attr, Set<QueuePairAttributeMask> mask) {
        Objects.requireNonNull(attr, MODIFY + ": attr");
        int bits = BitFlag.toBits(Objects.requireNonNull(mask, MODIFY + ": mask"));
        if (attr.byteSize() < ibv_qp_attr.LAYOUT.byteSize()) {
            throw new IllegalArgumentException(MODIFY + ": attr must be a struct ibv_qp_attr of "
                    + ibv_qp_attr.LAYOUT.byteSize() + " bytes, got " + attr.byteSize());
        }
        if (bits == 0) {
            throw new IllegalArgumentException(MODIFY + ": the attribute mask is empty");
        }
        try (Arena arena = Arena.ofConfined()) {
            modifyNative(arena, attr, bits);
        }
        if (mask.contains(QueuePairAttributeMask.STATE)) {
            QueuePairState newState = QueuePairState.orNull(ibv_qp_attr.qp_state(attr));
            enter(newState != null ? newState : QueuePairState.UNKNOWN, MODIFY);
        }
        if (mask.contains(QueuePairAttributeMask.PORT)) {
            port = Byte.toUnsignedInt(ibv_qp_attr.port_num(attr));
        }
    }

    private void modifyNative(Arena arena, MemorySegment attr, int mask) {
        qp.acquire();
        try {
            MemorySegment callState = CallState.allocate(arena);
            int rc = IbverbsCalls.ibv_modify_qp(callState, qp.handleSegment(), attr, mask);
            NativeCalls.checkReturnedErrno(MODIFY, rc);
        } finally {
            qp.release();
        }
    }

    QueuePairAttributes query() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment initAttr = arena.allocate(ibv_qp_init_attr.LAYOUT);
            QueuePairAttributes attributes = QueuePairAttributes.read(queryNative(arena, QUERY_MASK, initAttr), initAttr);
            if (attributes.state() != null) {
                enter(attributes.state(), "ibv_query_qp");
            }
            return attributes;
        }
    }

    /** {@code ibv_query_qp} asking for {@code qp_state} only; the answer becomes {@link #state()}. */
    QueuePairState queryState() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment attr = queryNative(arena, QueuePairAttributeMask.STATE.bit(), arena.allocate(ibv_qp_init_attr.LAYOUT));
            QueuePairState queried = QueuePairState.orNull(ibv_qp_attr.qp_state(attr));
            enter(queried != null ? queried : QueuePairState.UNKNOWN, "ibv_query_qp");
            return state;
        }
    }

    /** {@code ibv_query_qp(qp, attr, mask, initAttr)} into a new {@code attr} in {@code arena}. */
    private MemorySegment queryNative(Arena arena, int mask, MemorySegment initAttr) {
        qp.acquire();
        try {
            MemorySegment attr = arena.allocate(ibv_qp_attr.LAYOUT);
            int rc = IbverbsCalls.ibv_query_qp(CallState.allocate(arena), qp.handleSegment(), attr, mask, initAttr);
            NativeCalls.checkReturnedErrno("ibv_query_qp", rc);
            return attr;
        } finally {
            qp.release();
        }
    }
}
