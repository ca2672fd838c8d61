package dev.panamaverbs;

import static dev.panamaverbs.QpAttributeMask.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class QpTransitionsTest {

    /** The table from man ibv_modify_qp / IBA 11.2.4.2, written out independently of the implementation. */
    private static final Map<QpType, Map<QpState, Set<QpAttributeMask>>> REQUIRED = Map.of(
            QpType.RC, Map.of(
                    QpState.INIT, EnumSet.of(STATE, PKEY_INDEX, PORT, ACCESS_FLAGS),
                    QpState.RTR, EnumSet.of(STATE, ADDRESS_VECTOR, PATH_MTU, DEST_QPN, RQ_PSN, MAX_DEST_READ_ATOMIC, MIN_RNR_TIMER),
                    QpState.RTS, EnumSet.of(STATE, SQ_PSN, TIMEOUT, RETRY_COUNT, RNR_RETRY, MAX_READ_ATOMIC),
                    QpState.ERROR, EnumSet.of(STATE),
                    QpState.RESET, EnumSet.of(STATE)),
            QpType.UC, Map.of(
                    QpState.INIT, EnumSet.of(STATE, PKEY_INDEX, PORT, ACCESS_FLAGS),
                    QpState.RTR, EnumSet.of(STATE, ADDRESS_VECTOR, PATH_MTU, DEST_QPN, RQ_PSN),
                    QpState.RTS, EnumSet.of(STATE, SQ_PSN),
                    QpState.ERROR, EnumSet.of(STATE),
                    QpState.RESET, EnumSet.of(STATE)),
            QpType.UD, Map.of(
                    QpState.INIT, EnumSet.of(STATE, PKEY_INDEX, PORT, QKEY),
                    QpState.RTR, EnumSet.of(STATE),
                    QpState.RTS, EnumSet.of(STATE, SQ_PSN),
                    QpState.ERROR, EnumSet.of(STATE),
                    QpState.RESET, EnumSet.of(STATE)));

    @Test
    void masksMatchTheVerbsTableForEveryTransportAndTarget() {
        for (QpType type : REQUIRED.keySet()) {
            for (QpState target : QpState.values()) {
                Set<QpAttributeMask> expected = REQUIRED.get(type).get(target);
                if (expected == null) {
                    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                            () -> QpTransitions.maskFor(type, target), type + " -> " + target);
                    assertTrue(e.getMessage().startsWith("ibv_modify_qp"), e.getMessage());
                } else {
                    assertEquals(expected, QpTransitions.requiredAttributes(type, target), type + " -> " + target);
                    assertEquals(BitFlag.toBits(expected), QpTransitions.maskFor(type, target), type + " -> " + target);
                }
            }
        }
    }

    @Test
    void maskBitsAreTheVerbsHeaderValues() {
        assertEquals(1, STATE.bit());
        assertEquals(1 << 7, ADDRESS_VECTOR.bit());
        assertEquals(1 << 17, MAX_DEST_READ_ATOMIC.bit());
        assertEquals(1 << 20, DEST_QPN.bit());
        assertEquals(1 << 25, RATE_LIMIT.bit());
    }

    @Test
    void otherTransportsHaveNoTypedTransitions() {
        for (QpType type : EnumSet.complementOf(EnumSet.of(QpType.RC, QpType.UC, QpType.UD))) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> QpTransitions.maskFor(type, QpState.INIT));
            assertTrue(e.getMessage().contains(type.name()), e.getMessage());
        }
    }

    @Test
    void typedTransitionsFollowTheStateMachine() {
        Map<QpState, Set<QpState>> allowedFrom = Map.of(
                QpState.INIT, EnumSet.of(QpState.RESET, QpState.INIT),
                QpState.RTR, EnumSet.of(QpState.INIT),
                QpState.RTS, EnumSet.of(QpState.RTR),
                QpState.ERROR, EnumSet.of(QpState.INIT, QpState.RTR, QpState.RTS, QpState.SQD, QpState.SQE, QpState.ERROR),
                QpState.RESET, EnumSet.allOf(QpState.class));
        for (QpState target : QpState.values()) {
            for (QpState from : QpState.values()) {
                boolean expected = allowedFrom.getOrDefault(target, Set.of()).contains(from);
                assertEquals(expected, QpTransitions.isTypedTransition(from, target), from + " -> " + target);
            }
        }
    }

    @Test
    void illegalTransitionNamesTheQueuePairAndBothStates() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> QpTransitions.requireTypedTransition("QueuePair[qpn=17, RC]", QpState.INIT, QpState.RTS));
        assertTrue(e.getMessage().contains("ibv_modify_qp"), e.getMessage());
        assertTrue(e.getMessage().contains("qpn=17"), e.getMessage());
        assertTrue(e.getMessage().contains("INIT") && e.getMessage().contains("RTS"), e.getMessage());
        QpTransitions.requireTypedTransition("qp", QpState.RTR, QpState.RTS);
    }
}
