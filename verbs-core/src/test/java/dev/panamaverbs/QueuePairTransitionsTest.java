package dev.panamaverbs;


import dev.panamaverbs.internal.QueuePairTransitions;
import dev.panamaverbs.values.AccessFlag;
import dev.panamaverbs.values.BitFlag;
import dev.panamaverbs.values.QueuePairAttributeMask;
import dev.panamaverbs.values.QueuePairState;
import dev.panamaverbs.values.QueuePairType;
import static dev.panamaverbs.values.QueuePairAttributeMask.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class QpTransitionsTest {

    /** The table from man ibv_modify_qp / IBA 11.2.4.2, written out independently of the implementation. */
    private static final Map<QueuePairType, Map<QueuePairState, Set<QueuePairAttributeMask>>> REQUIRED = Map.of(
            QueuePairType.RC, Map.of(
                    QueuePairState.INIT, EnumSet.of(STATE, PKEY_INDEX, PORT, ACCESS_FLAGS),
                    QueuePairState.RTR, EnumSet.of(STATE, ADDRESS_VECTOR, PATH_MTU, DEST_QPN, RQ_PSN, MAX_DEST_READ_ATOMIC, MIN_RNR_TIMER),
                    QueuePairState.RTS, EnumSet.of(STATE, SQ_PSN, TIMEOUT, RETRY_COUNT, RNR_RETRY, MAX_READ_ATOMIC),
                    QueuePairState.SQD, EnumSet.of(STATE),
                    QueuePairState.ERROR, EnumSet.of(STATE),
                    QueuePairState.RESET, EnumSet.of(STATE)),
            QueuePairType.UC, Map.of(
                    QueuePairState.INIT, EnumSet.of(STATE, PKEY_INDEX, PORT, ACCESS_FLAGS),
                    QueuePairState.RTR, EnumSet.of(STATE, ADDRESS_VECTOR, PATH_MTU, DEST_QPN, RQ_PSN),
                    QueuePairState.RTS, EnumSet.of(STATE, SQ_PSN),
                    QueuePairState.SQD, EnumSet.of(STATE),
                    QueuePairState.ERROR, EnumSet.of(STATE),
                    QueuePairState.RESET, EnumSet.of(STATE)),
            QueuePairType.UD, Map.of(
                    QueuePairState.INIT, EnumSet.of(STATE, PKEY_INDEX, PORT, QKEY),
                    QueuePairState.RTR, EnumSet.of(STATE),
                    QueuePairState.RTS, EnumSet.of(STATE, SQ_PSN),
                    QueuePairState.SQD, EnumSet.of(STATE),
                    QueuePairState.ERROR, EnumSet.of(STATE),
                    QueuePairState.RESET, EnumSet.of(STATE)),
            // Not in IBA: what rdma-core's raw Ethernet providers (mlx4/mlx5) take.
            QueuePairType.RAW_PACKET, Map.of(
                    QueuePairState.INIT, EnumSet.of(STATE, PORT),
                    QueuePairState.RTR, EnumSet.of(STATE),
                    QueuePairState.RTS, EnumSet.of(STATE),
                    QueuePairState.SQD, EnumSet.of(STATE),
                    QueuePairState.ERROR, EnumSet.of(STATE),
                    QueuePairState.RESET, EnumSet.of(STATE)));

    @Test
    void masksMatchTheVerbsTableForEveryTransportAndTarget() {
        for (QueuePairType type : REQUIRED.keySet()) {
            for (QueuePairState target : QueuePairState.values()) {
                Set<QueuePairAttributeMask> expected = REQUIRED.get(type).get(target);
                if (expected == null) {
                    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                            () -> QueuePairTransitions.maskFor(type, target), type + " -> " + target);
                    assertTrue(e.getMessage().startsWith("ibv_modify_qp"), e.getMessage());
                } else {
                    assertEquals(expected, QueuePairTransitions.requiredAttributes(type, target), type + " -> " + target);
                    assertEquals(BitFlag.toBits(expected), QueuePairTransitions.maskFor(type, target), type + " -> " + target);
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
        for (QueuePairType type : EnumSet.complementOf(EnumSet.of(QueuePairType.RC, QueuePairType.UC, QueuePairType.UD, QueuePairType.RAW_PACKET))) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> QueuePairTransitions.maskFor(type, QueuePairState.INIT));
            assertTrue(e.getMessage().contains(type.name()), e.getMessage());
        }
    }

    @Test
    void typedTransitionsFollowTheStateMachine() {
        Map<QueuePairState, Set<QueuePairState>> allowedFrom = Map.of(
                QueuePairState.INIT, EnumSet.of(QueuePairState.RESET, QueuePairState.INIT),
                QueuePairState.RTR, EnumSet.of(QueuePairState.INIT),
                QueuePairState.RTS, EnumSet.of(QueuePairState.RTR, QueuePairState.RTS, QueuePairState.SQD, QueuePairState.SQE),
                QueuePairState.SQD, EnumSet.of(QueuePairState.RTS),
                QueuePairState.ERROR, EnumSet.of(QueuePairState.INIT, QueuePairState.RTR, QueuePairState.RTS, QueuePairState.SQD, QueuePairState.SQE, QueuePairState.ERROR),
                QueuePairState.RESET, EnumSet.allOf(QueuePairState.class));
        for (QueuePairState target : QueuePairState.values()) {
            for (QueuePairState from : QueuePairState.values()) {
                boolean expected = allowedFrom.getOrDefault(target, Set.of()).contains(from);
                assertEquals(expected, QueuePairTransitions.isTypedTransition(from, target), from + " -> " + target);
            }
        }
    }

    /** The optional attributes of the kernel's qp_state_table (IBA 11.2.4.2), written out independently. */
    private static final Map<QueuePairState, Map<QueuePairType, Set<QueuePairAttributeMask>>> OPTIONAL_TO_RTS = Map.of(
            QueuePairState.RTS, Map.of(
                    QueuePairType.RC, EnumSet.of(CURRENT_STATE, ACCESS_FLAGS, ALTERNATE_PATH, PATH_MIGRATION_STATE, MIN_RNR_TIMER),
                    QueuePairType.UC, EnumSet.of(CURRENT_STATE, ACCESS_FLAGS, ALTERNATE_PATH, PATH_MIGRATION_STATE),
                    QueuePairType.UD, EnumSet.of(CURRENT_STATE, QKEY)),
            QueuePairState.SQD, Map.of(
                    QueuePairType.RC, EnumSet.of(CURRENT_STATE, ACCESS_FLAGS, ALTERNATE_PATH, PATH_MIGRATION_STATE, MIN_RNR_TIMER),
                    QueuePairType.UC, EnumSet.of(CURRENT_STATE, ACCESS_FLAGS, ALTERNATE_PATH, PATH_MIGRATION_STATE),
                    QueuePairType.UD, EnumSet.of(CURRENT_STATE, QKEY)),
            QueuePairState.SQE, Map.of(
                    QueuePairType.UC, EnumSet.of(CURRENT_STATE, ACCESS_FLAGS),
                    QueuePairType.UD, EnumSet.of(CURRENT_STATE, QKEY)));

    @Test
    void resumingRtsRequiresStateOnlyAndAllowsTheTableOptionals() {
        for (QueuePairType type : EnumSet.of(QueuePairType.RC, QueuePairType.UC, QueuePairType.UD)) {
            assertEquals(BitFlag.toBits(REQUIRED.get(type).get(QueuePairState.RTS)), QueuePairTransitions.maskFor(type, QueuePairState.RTR, QueuePairState.RTS));
            for (QueuePairState from : QueuePairState.values()) {
                Set<QueuePairAttributeMask> optional = OPTIONAL_TO_RTS.getOrDefault(from, Map.of()).get(type);
                if (optional == null) {
                    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                            () -> QueuePairTransitions.optionalMaskFor(type, from, QueuePairState.RTS), type + " " + from + " -> RTS");
                    assertTrue(e.getMessage().startsWith("ibv_modify_qp"), e.getMessage());
                } else {
                    assertEquals(BitFlag.toBits(optional), QueuePairTransitions.optionalMaskFor(type, from, QueuePairState.RTS),
                            type + " " + from + " -> RTS");
                    assertEquals(STATE.bit(), QueuePairTransitions.maskFor(type, from, QueuePairState.RTS), type + " " + from + " -> RTS");
                }
            }
            assertEquals(SQD_ASYNC_NOTIFY.bit(), QueuePairTransitions.optionalMaskFor(type, QueuePairState.RTS, QueuePairState.SQD));
            assertEquals(STATE.bit(), QueuePairTransitions.maskFor(type, QueuePairState.RTS, QueuePairState.SQD));
            assertThrows(IllegalArgumentException.class, () -> QueuePairTransitions.optionalMaskFor(type, QueuePairState.INIT, QueuePairState.SQD));
            assertThrows(IllegalArgumentException.class, () -> QueuePairTransitions.optionalMaskFor(type, QueuePairState.RTR, QueuePairState.RTR));
        }
        IllegalArgumentException rcSqe = assertThrows(IllegalArgumentException.class,
                () -> QueuePairTransitions.maskFor(QueuePairType.RC, QueuePairState.SQE, QueuePairState.RTS));
        assertTrue(rcSqe.getMessage().contains("SQE"), rcSqe.getMessage());
        assertThrows(IllegalArgumentException.class, () -> QueuePairTransitions.optionalMaskFor(QueuePairType.XRC_SEND, QueuePairState.RTS, QueuePairState.RTS));
    }

    @Test
    void rawPacketResumesNothingButTakesRtrToRts() {
        assertEquals(STATE.bit(), QueuePairTransitions.maskFor(QueuePairType.RAW_PACKET, QueuePairState.RTR, QueuePairState.RTS));
        for (QueuePairState from : EnumSet.of(QueuePairState.RTS, QueuePairState.SQD, QueuePairState.SQE)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> QueuePairTransitions.maskFor(QueuePairType.RAW_PACKET, from, QueuePairState.RTS), from + " -> RTS");
            assertTrue(e.getMessage().contains("RAW_PACKET"), e.getMessage());
        }
        IllegalArgumentException access = assertThrows(IllegalArgumentException.class,
                () -> QueuePairTransitionAttributes.accessBits(QueuePairType.RAW_PACKET, EnumSet.of(AccessFlag.REMOTE_WRITE)));
        assertTrue(access.getMessage().contains("RAW_PACKET"), access.getMessage());
        assertEquals(0, QueuePairTransitionAttributes.accessBits(QueuePairType.RAW_PACKET, Set.of()));
    }

    @Test
    void illegalTransitionNamesTheQueuePairAndBothStates() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> QueuePairTransitions.requireTypedTransition("QueuePair[qpn=17, RC]", QueuePairState.INIT, QueuePairState.RTS));
        assertTrue(e.getMessage().contains("ibv_modify_qp"), e.getMessage());
        assertTrue(e.getMessage().contains("qpn=17"), e.getMessage());
        assertTrue(e.getMessage().contains("INIT") && e.getMessage().contains("RTS"), e.getMessage());
        QueuePairTransitions.requireTypedTransition("qp", QueuePairState.RTR, QueuePairState.RTS);
    }

    @Test
    void aSendNeedsRtsOnAndAReceiveAnyStateButReset() {
        for (QueuePairState state : QueuePairState.values()) {
            boolean sendRefused = state == QueuePairState.RESET || state == QueuePairState.INIT || state == QueuePairState.RTR;
            boolean receiveRefused = state == QueuePairState.RESET;
            assertPostable("ibv_post_send", true, state, sendRefused);
            assertPostable("ibv_post_recv", false, state, receiveRefused);
        }
    }

    /** ERROR and SQE flush posts and SQD queues them: none of these may be refused. */
    private static void assertPostable(String verb, boolean send, QueuePairState state, boolean refused) {
        if (!refused) {
            QueuePairTransitions.requirePostable(verb, send, "QueuePair[qpn=9]", state);
            return;
        }
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> QueuePairTransitions.requirePostable(verb, send, "QueuePair[qpn=9]", state));
        assertTrue(e.getMessage().startsWith(verb + ": QueuePair[qpn=9] is in " + state + "; "), e.getMessage());
    }
}
