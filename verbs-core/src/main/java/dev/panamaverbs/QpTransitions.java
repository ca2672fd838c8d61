package dev.panamaverbs;

import static dev.panamaverbs.ffm.VerbsConstants.*;

import java.util.Set;

/**
 * The queue pair state machine as the typed transitions of {@link QueuePair} use it: which
 * {@code IBV_QP_*} attributes {@code ibv_modify_qp} requires for each transport and target state
 * (IBA 11.2.4.2 / {@code man ibv_modify_qp}), and which moves a typed transition accepts.
 * Pure functions, no native calls.
 */
public final class QpTransitions {
    private QpTransitions() {}

    private static final int INIT_CONNECTED = IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS;
    private static final int INIT_DATAGRAM = IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_QKEY;
    private static final int RTR_RC = IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN
            | IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER;
    private static final int RTR_UC = IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN;
    private static final int RTS_RC = IBV_QP_STATE | IBV_QP_SQ_PSN | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT
            | IBV_QP_RNR_RETRY | IBV_QP_MAX_QP_RD_ATOMIC;
    private static final int RTS_UNRELIABLE = IBV_QP_STATE | IBV_QP_SQ_PSN;

    /**
     * The attribute mask {@code ibv_modify_qp} requires to move a {@code type} queue pair to
     * {@code target} along RESET -> INIT -> RTR -> RTS, or to ERROR / RESET from anywhere.
     *
     * @throws IllegalArgumentException for a transport other than RC, UC, UD, or a target state
     *         that has no typed transition (SQD, SQE, UNKNOWN)
     */
    static int maskFor(QpType type, QpState target) {
        requireTypedTransport(type);
        return switch (target) {
            case INIT -> type == QpType.UD ? INIT_DATAGRAM : INIT_CONNECTED;
            case RTR -> switch (type) {
                case RC -> RTR_RC;
                case UC -> RTR_UC;
                default -> IBV_QP_STATE;
            };
            case RTS -> type == QpType.RC ? RTS_RC : RTS_UNRELIABLE;
            case ERROR, RESET -> IBV_QP_STATE;
            default -> throw new IllegalArgumentException(
                    "ibv_modify_qp: no typed transition to " + target + "; use QueuePair.modify");
        };
    }

    /** {@link #maskFor} as a set of {@link QpAttributeMask}, for callers of {@link QueuePair#modify}. */
    public static Set<QpAttributeMask> requiredAttributes(QpType type, QpState target) {
        return BitFlag.fromBits(QpAttributeMask.class, maskFor(type, target));
    }

    /**
     * Whether the typed transition to {@code target} may start in {@code from}: INIT from RESET
     * or INIT, RTR from INIT, RTS from RTR, ERROR from any state but RESET (the kernel refuses
     * RESET -> ERROR), RESET from any state.
     */
    public static boolean isTypedTransition(QpState from, QpState target) {
        return switch (target) {
            case INIT -> from == QpState.RESET || from == QpState.INIT;
            case RTR -> from == QpState.INIT;
            case RTS -> from == QpState.RTR;
            case ERROR -> from != QpState.RESET && from != QpState.UNKNOWN;
            case RESET -> true;
            default -> false;
        };
    }

    /** Throws {@link IllegalStateException} naming {@code qp} when the typed transition is not allowed. */
    static void requireTypedTransition(Object qp, QpState from, QpState target) {
        if (!isTypedTransition(from, target)) {
            throw new IllegalStateException("ibv_modify_qp: " + qp + " cannot go from " + from + " to " + target
                    + " (the path is RESET -> INIT -> RTR -> RTS; ERROR from any state but RESET; RESET from any)");
        }
    }

    /** The transports the typed transitions know. */
    static void requireTypedTransport(QpType type) {
        if (type != QpType.RC && type != QpType.UC && type != QpType.UD) {
            throw new IllegalArgumentException(
                    "ibv_modify_qp: typed transitions support RC, UC and UD, not " + type + "; use QueuePair.modify");
        }
    }
}
