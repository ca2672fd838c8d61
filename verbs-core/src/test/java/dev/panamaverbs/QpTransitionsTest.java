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
                    QpState.SQD, EnumSet.of(STATE),
                    QpState.ERROR, EnumSet.of(STATE),
                    QpState.RESET, EnumSet.of(STATE)),
            QpType.UC, Map.of(
                    QpState.INIT, EnumSet.of(STATE, PKEY_INDEX, PORT, ACCESS_FLAGS),
                    QpState.RTR, EnumSet.of(STATE, ADDRESS_VECTOR, PATH_MTU, DEST_QPN, RQ_PSN),
                    QpState.RTS, EnumSet.of(STATE, SQ_PSN),
                    QpState.SQD, EnumSet.of(STATE),
                    QpState.ERROR, EnumSet.of(STATE),
                    QpState.RESET, EnumSet.of(STATE)),
            QpType.UD, Map.of(
                    QpState.INIT, EnumSet.of(STATE, PKEY_INDEX, PORT, QKEY),
                    QpState.RTR, EnumSet.of(STATE),
                    QpState.RTS, EnumSet.of(STATE, SQ_PSN),
                    QpState.SQD, EnumSet.of(STATE),
                    QpState.ERROR, EnumSet.of(STATE),
                    QpState.RESET, EnumSet.of(STATE)),
            // Not in IBA: what rdma-core's raw Ethernet providers (mlx4/mlx5) take.
            QpType.RAW_PACKET, Map.of(
                    QpState.INIT, EnumSet.of(STATE, PORT),
                    QpState.RTR, EnumSet.of(STATE),
                    QpState.RTS, EnumSet.of(STATE),
                    QpState.SQD, EnumSet.of(STATE),
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
        for (QpType type : EnumSet.complementOf(EnumSet.of(QpType.RC, QpType.UC, QpType.UD, QpType.RAW_PACKET))) {
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
                QpState.RTS, EnumSet.of(QpState.RTR, QpState.RTS, QpState.SQD, QpState.SQE),
                QpState.SQD, EnumSet.of(QpState.RTS),
                QpState.ERROR, EnumSet.of(QpState.INIT, QpState.RTR, QpState.RTS, QpState.SQD, QpState.SQE, QpState.ERROR),
                QpState.RESET, EnumSet.allOf(QpState.class));
        for (QpState target : QpState.values()) {
            for (QpState from : QpState.values()) {
                boolean expected = allowedFrom.getOrDefault(target, Set.of()).contains(from);
                assertEquals(expected, QpTransitions.isTypedTransition(from, target), from + " -> " + target);
            }
        }
    }

    /** The optional attributes of the kernel's qp_state_table (IBA 11.2.4.2), written out independently. */
    private static final Map<QpState, Map<QpType, Set<QpAttributeMask>>> OPTIONAL_TO_RTS = Map.of(
            QpState.RTS, Map.of(
                    QpType.RC, EnumSet.of(CURRENT_STATE, ACCESS_FLAGS, ALTERNATE_PATH, PATH_MIGRATION_STATE, MIN_RNR_TIMER),
                    QpType.UC, EnumSet.of(CURRENT_STATE, ACCESS_FLAGS, ALTERNATE_PATH, PATH_MIGRATION_STATE),
                    QpType.UD, EnumSet.of(CURRENT_STATE, QKEY)),
            QpState.SQD, Map.of(
                    QpType.RC, EnumSet.of(CURRENT_STATE, ACCESS_FLAGS, ALTERNATE_PATH, PATH_MIGRATION_STATE, MIN_RNR_TIMER),
                    QpType.UC, EnumSet.of(CURRENT_STATE, ACCESS_FLAGS, ALTERNATE_PATH, PATH_MIGRATION_STATE),
                    QpType.UD, EnumSet.of(CURRENT_STATE, QKEY)),
            QpState.SQE, Map.of(
                    QpType.UC, EnumSet.of(CURRENT_STATE, ACCESS_FLAGS),
                    QpType.UD, EnumSet.of(CURRENT_STATE, QKEY)));

    @Test
    void resumingRtsRequiresStateOnlyAndAllowsTheTableOptionals() {
        for (QpType type : EnumSet.of(QpType.RC, QpType.UC, QpType.UD)) {
            assertEquals(BitFlag.toBits(REQUIRED.get(type).get(QpState.RTS)), QpTransitions.maskFor(type, QpState.RTR, QpState.RTS));
            for (QpState from : QpState.values()) {
                Set<QpAttributeMask> optional = OPTIONAL_TO_RTS.getOrDefault(from, Map.of()).get(type);
                if (optional == null) {
                    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                            () -> QpTransitions.optionalMaskFor(type, from, QpState.RTS), type + " " + from + " -> RTS");
                    assertTrue(e.getMessage().startsWith("ibv_modify_qp"), e.getMessage());
                } else {
                    assertEquals(BitFlag.toBits(optional), QpTransitions.optionalMaskFor(type, from, QpState.RTS),
                            type + " " + from + " -> RTS");
                    assertEquals(STATE.bit(), QpTransitions.maskFor(type, from, QpState.RTS), type + " " + from + " -> RTS");
                }
            }
            assertEquals(SQD_ASYNC_NOTIFY.bit(), QpTransitions.optionalMaskFor(type, QpState.RTS, QpState.SQD));
            assertEquals(STATE.bit(), QpTransitions.maskFor(type, QpState.RTS, QpState.SQD));
            assertThrows(IllegalArgumentException.class, () -> QpTransitions.optionalMaskFor(type, QpState.INIT, QpState.SQD));
            assertThrows(IllegalArgumentException.class, () -> QpTransitions.optionalMaskFor(type, QpState.RTR, QpState.RTR));
        }
        IllegalArgumentException rcSqe = assertThrows(IllegalArgumentException.class,
                () -> QpTransitions.maskFor(QpType.RC, QpState.SQE, QpState.RTS));
        assertTrue(rcSqe.getMessage().contains("SQE"), rcSqe.getMessage());
        assertThrows(IllegalArgumentException.class, () -> QpTransitions.optionalMaskFor(QpType.XRC_SEND, QpState.RTS, QpState.RTS));
    }

    @Test
    void rawPacketResumesNothingButTakesRtrToRts() {
        assertEquals(STATE.bit(), QpTransitions.maskFor(QpType.RAW_PACKET, QpState.RTR, QpState.RTS));
        for (QpState from : EnumSet.of(QpState.RTS, QpState.SQD, QpState.SQE)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> QpTransitions.maskFor(QpType.RAW_PACKET, from, QpState.RTS), from + " -> RTS");
            assertTrue(e.getMessage().contains("RAW_PACKET"), e.getMessage());
        }
        IllegalArgumentException access = assertThrows(IllegalArgumentException.class,
                () -> QpTransitionAttributes.accessBits(QpType.RAW_PACKET, EnumSet.of(AccessFlag.REMOTE_WRITE)));
        assertTrue(access.getMessage().contains("RAW_PACKET"), access.getMessage());
        assertEquals(0, QpTransitionAttributes.accessBits(QpType.RAW_PACKET, Set.of()));
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

    @Test
    void aSendNeedsRtsOnAndAReceiveAnyStateButReset() {
        for (QpState state : QpState.values()) {
            boolean sendRefused = state == QpState.RESET || state == QpState.INIT || state == QpState.RTR;
            boolean receiveRefused = state == QpState.RESET;
            assertPostable("ibv_post_send", true, state, sendRefused);
            assertPostable("ibv_post_recv", false, state, receiveRefused);
        }
    }

    /** ERROR and SQE flush posts and SQD queues them: none of these may be refused. */
    private static void assertPostable(String verb, boolean send, QpState state, boolean refused) {
        if (!refused) {
            QpTransitions.requirePostable(verb, send, "QueuePair[qpn=9]", state);
            return;
        }
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> QpTransitions.requirePostable(verb, send, "QueuePair[qpn=9]", state));
        assertTrue(e.getMessage().startsWith(verb + ": QueuePair[qpn=9] is in " + state + "; "), e.getMessage());
    }
}
