package dev.panamaverbs.internal;

import dev.panamaverbs.values.BitFlag;
import dev.panamaverbs.values.QueuePairAttributeMask;
import dev.panamaverbs.values.QueuePairState;
import dev.panamaverbs.values.QueuePairType;
import static dev.panamaverbs.ffm.VerbsConstants.*;

import java.util.Set;

/**
 * The queue pair state machine as the typed transitions of {@link dev.panamaverbs.QueuePair} use it: which
 * {@code IBV_QP_*} attributes {@code ibv_modify_qp} requires for each transport and target state
 * (IBA 11.2.4.2 / {@code man ibv_modify_qp}), and which moves a typed transition accepts.
 * Pure functions, no native calls.
 */
public final class QueuePairTransitions {
    private QueuePairTransitions() {}

    private static final int INIT_CONNECTED = IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS;
    private static final int INIT_DATAGRAM = IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_QKEY;
    private static final int RTR_RC = IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN
            | IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER;
    private static final int RTR_UC = IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN;
    private static final int RTS_RC = IBV_QP_STATE | IBV_QP_SQ_PSN | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT
            | IBV_QP_RNR_RETRY | IBV_QP_MAX_QP_RD_ATOMIC;
    private static final int RTS_UNRELIABLE = IBV_QP_STATE | IBV_QP_SQ_PSN;
    // A raw packet queue pair has no PSN, P_Key, Q_Key or access flags: only its port (IBA has no
    // such transport; this is what rdma-core's raw Ethernet providers require).
    private static final int INIT_RAW = IBV_QP_STATE | IBV_QP_PORT;

    /**
     * The attribute mask {@code ibv_modify_qp} requires to move a {@code type} queue pair to
     * {@code target} along RESET -> INIT -> RTR -> RTS, RTS -> SQD, or to ERROR / RESET from
     * anywhere. For RTS the mask of RTR -> RTS; see {@link #maskFor(QueuePairType, QueuePairState, QueuePairState)}
     * for RTS -> RTS, SQD -> RTS and SQE -> RTS.
     *
     * @throws IllegalArgumentException for a transport other than RC, UC, UD, RAW_PACKET, or a target state
     *         that has no typed transition (SQE, UNKNOWN)
     */
    public static int maskFor(QueuePairType type, QueuePairState target) {
        requireTypedTransport(type);
        return switch (target) {
            case INIT -> switch (type) {
                case UD -> INIT_DATAGRAM;
                case RAW_PACKET -> INIT_RAW;
                default -> INIT_CONNECTED;
            };
            case RTR -> switch (type) {
                case RC -> RTR_RC;
                case UC -> RTR_UC;
                default -> IBV_QP_STATE;
            };
            case RTS -> switch (type) {
                case RC -> RTS_RC;
                case RAW_PACKET -> IBV_QP_STATE;
                default -> RTS_UNRELIABLE;
            };
            case SQD, ERROR, RESET -> IBV_QP_STATE;
            default -> throw new IllegalArgumentException(
                    "ibv_modify_qp: no typed transition to " + target + "; use QueuePair.modify");
        };
    }

    /**
     * The attribute mask {@code ibv_modify_qp} requires for {@code from -> target}: as
     * {@link #maskFor(QueuePairType, QueuePairState)}, except that RTS -> RTS, SQD -> RTS and SQE -> RTS
     * require {@code STATE} only (their other attributes are optional,
     * {@link #optionalMaskFor}).
     *
     * @throws IllegalArgumentException as {@link #maskFor(QueuePairType, QueuePairState)}, and for SQE -> RTS
     *         of an RC queue pair (RC has no SQE state: a send error moves it to ERROR)
     */
    public static int maskFor(QueuePairType type, QueuePairState from, QueuePairState target) {
        if (target == QueuePairState.RTS && from != QueuePairState.RTR) {
            optionalMaskFor(type, from, target); // checks the transport and the pair
            return IBV_QP_STATE;
        }
        return maskFor(type, target);
    }

    /**
     * The optional attributes {@code ibv_modify_qp} accepts besides the required ones for the
     * typed moves RTS -> RTS, SQD -> RTS, SQE -> RTS and RTS -> SQD (the kernel's
     * {@code qp_state_table}, IBA 11.2.4.2): RTS -> RTS and SQD -> RTS take {@code CUR_STATE},
     * {@code ACCESS_FLAGS}, {@code ALT_PATH}, {@code PATH_MIG_STATE} (+ {@code MIN_RNR_TIMER} for
     * RC) on RC/UC and {@code CUR_STATE | QKEY} on UD; SQE -> RTS takes {@code CUR_STATE} plus
     * {@code ACCESS_FLAGS} (UC) or {@code QKEY} (UD); RTS -> SQD takes {@code EN_SQD_ASYNC_NOTIFY}.
     *
     * @throws IllegalArgumentException for another transport or pair, or SQE -> RTS on RC
     */
    public static int optionalMaskFor(QueuePairType type, QueuePairState from, QueuePairState target) {
        requireTypedTransport(type);
        if (target == QueuePairState.SQD && from == QueuePairState.RTS) {
            return IBV_QP_EN_SQD_ASYNC_NOTIFY;
        }
        if (target == QueuePairState.RTS && type == QueuePairType.RAW_PACKET) {
            // IBA's table has no raw packet transport, so no optional attributes are known for it.
            throw new IllegalArgumentException("ibv_modify_qp: no typed RAW_PACKET transition " + from + " -> " + target
                    + " other than RTR -> RTS; use QueuePair.modify");
        }
        if (target == QueuePairState.RTS && (from == QueuePairState.RTS || from == QueuePairState.SQD)) {
            return switch (type) {
                case RC -> IBV_QP_CUR_STATE | IBV_QP_ACCESS_FLAGS | IBV_QP_ALT_PATH | IBV_QP_PATH_MIG_STATE
                        | IBV_QP_MIN_RNR_TIMER;
                case UC -> IBV_QP_CUR_STATE | IBV_QP_ACCESS_FLAGS | IBV_QP_ALT_PATH | IBV_QP_PATH_MIG_STATE;
                default -> IBV_QP_CUR_STATE | IBV_QP_QKEY;
            };
        }
        if (target == QueuePairState.RTS && from == QueuePairState.SQE && type != QueuePairType.RC) {
            return IBV_QP_CUR_STATE | (type == QueuePairType.UC ? IBV_QP_ACCESS_FLAGS : IBV_QP_QKEY);
        }
        throw new IllegalArgumentException("ibv_modify_qp: no typed " + type + " transition " + from + " -> " + target
                + " with optional attributes; use QueuePair.modify");
    }

    /**
     * {@link #maskFor} as a set of {@link QueuePairAttributeMask}, for callers of {@link dev.panamaverbs.QueuePair#modify}.
     *
     * @param type the type
     * @param target the target
     * @return the attributes the transition requires
     */
    public static Set<QueuePairAttributeMask> requiredAttributes(QueuePairType type, QueuePairState target) {
        return BitFlag.fromBits(QueuePairAttributeMask.class, maskFor(type, target));
    }

    /**
     * Whether the typed transition to {@code target} may start in {@code from}: INIT from RESET
     * or INIT, RTR from INIT, RTS from RTR, RTS, SQD or SQE, SQD from RTS, ERROR from any state but RESET (the kernel refuses
     * RESET -> ERROR), RESET from any state.
     *
     * @param from the first value
     * @param target the target
     * @return whether the typed transition to {@code target} may start in {@code from}: INIT from RESET or INIT, RTR from INIT, RTS from RTR, RTS, SQD or SQE, SQD from RTS, ERROR from any state but RESET (the kernel refuses RESET -> ERROR), RESET from any state
     */
    public static boolean isTypedTransition(QueuePairState from, QueuePairState target) {
        return switch (target) {
            case INIT -> from == QueuePairState.RESET || from == QueuePairState.INIT;
            case RTR -> from == QueuePairState.INIT;
            case RTS -> from == QueuePairState.RTR || from == QueuePairState.RTS || from == QueuePairState.SQD || from == QueuePairState.SQE;
            case SQD -> from == QueuePairState.RTS;
            case ERROR -> from != QueuePairState.RESET && from != QueuePairState.UNKNOWN;
            case RESET -> true;
            default -> false;
        };
    }

    /** Throws {@link IllegalStateException} naming {@code qp} when the typed transition is not allowed. */
    public static void requireTypedTransition(Object qp, QueuePairState from, QueuePairState target) {
        if (!isTypedTransition(from, target)) {
            throw new IllegalStateException("ibv_modify_qp: " + qp + " cannot go from " + from + " to " + target
                    + " (the path is RESET -> INIT -> RTR -> RTS; RTS <-> SQD; SQE -> RTS; ERROR from any state but RESET; RESET from any)");
        }
    }

    /**
     * The states that refuse a send ({@code ibv_post_send}): RESET, INIT and RTR, as bits indexed
     * by {@link QueuePairState#ordinal()}, so the send path tests a state with one shift and AND
     * and calls {@link #requirePostable} only to throw. SQD, SQE and ERROR accept a send (the last
     * two flush it).
     */
    public static final int SEND_REFUSED_STATES = 1 << QueuePairState.RESET.ordinal()
            | 1 << QueuePairState.INIT.ordinal() | 1 << QueuePairState.RTR.ordinal();
    /** The states that refuse a receive ({@code ibv_post_recv}): RESET only, as {@link #SEND_REFUSED_STATES}. */
    public static final int RECEIVE_REFUSED_STATES = 1 << QueuePairState.RESET.ordinal();

    /**
     * Throws {@link IllegalStateException} naming {@code verb}, {@code qp} and {@code state} when
     * the verbs refuse a post in that state ({@link #SEND_REFUSED_STATES},
     * {@link #RECEIVE_REFUSED_STATES}). {@code state} is the state the library set: the device
     * moves a queue pair only to SQE or ERROR on its own, both of which accept every post, so a
     * refusal here is never wrong. UNKNOWN (a raw modify to a value this version does not know)
     * is left to the provider.
     */
    public static void requirePostable(String verb, boolean send, Object qp, QueuePairState state) {
        int refused = send ? SEND_REFUSED_STATES : RECEIVE_REFUSED_STATES;
        if ((refused >>> state.ordinal() & 1) != 0) {
            throw new IllegalStateException(verb + ": " + qp + " is in " + state + (send
                    ? "; a send can be posted from RTS on (toRtr, then toRts)"
                    : "; a receive can be posted from INIT on (toInit first)"));
        }
    }

    /** The transports the typed transitions know. */
    public static void requireTypedTransport(QueuePairType type) {
        if (type != QueuePairType.RC && type != QueuePairType.UC && type != QueuePairType.UD && type != QueuePairType.RAW_PACKET) {
            throw new IllegalArgumentException(
                    "ibv_modify_qp: typed transitions support RC, UC, UD and RAW_PACKET, not " + type + "; use QueuePair.modify");
        }
    }
}
