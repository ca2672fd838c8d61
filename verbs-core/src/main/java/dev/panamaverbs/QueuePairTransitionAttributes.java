package dev.panamaverbs;

import dev.panamaverbs.values.AccessFlag;
import dev.panamaverbs.values.BitFlag;
import dev.panamaverbs.values.PortAttributes;
import dev.panamaverbs.values.QueuePairState;
import dev.panamaverbs.values.QueuePairType;
import dev.panamaverbs.values.ReadyToSendOptions;
import dev.panamaverbs.values.RemoteEndpoint;
import dev.panamaverbs.ffm.ibv_qp_attr;
import java.lang.foreign.MemorySegment;
import java.util.Objects;
import java.util.Set;

/**
 * The argument checks and {@code struct ibv_qp_attr} filling behind the typed transitions of
 * {@link QueuePair}: everything but the {@code ibv_modify_qp} call itself. Checks throw
 * {@link IllegalArgumentException} naming {@code ibv_modify_qp}; writers expect a zeroed struct.
 */
final class QueuePairTransitionAttributes {
    static final String MODIFY = "ibv_modify_qp";
    private static final int QP_ACCESS_FLAGS = AccessFlag.LOCAL_WRITE.bit() | AccessFlag.REMOTE_WRITE.bit()
            | AccessFlag.REMOTE_READ.bit() | AccessFlag.REMOTE_ATOMIC.bit();

    private QueuePairTransitionAttributes() {}

    /** The {@code qp_access_flags} bits for an RC/UC INIT: remote rights only, and none UC cannot serve. */
    static int accessBits(QueuePairType type, Set<AccessFlag> access) {
        if (type == QueuePairType.UD) {
            throw new IllegalArgumentException(MODIFY + ": a UD queue pair takes a Q_Key at INIT, not access flags:"
                    + " use toInit(port, pkeyIndex, qkey)");
        }
        int bits = BitFlag.toBits(Objects.requireNonNull(access, MODIFY + ": access flags"));
        if (type == QueuePairType.RAW_PACKET && bits != 0) {
            throw new IllegalArgumentException(MODIFY + ": a RAW_PACKET queue pair takes no access flags (INIT sets its port only), got "
                    + access);
        }
        if ((bits & ~QP_ACCESS_FLAGS) != 0) {
            throw new IllegalArgumentException(MODIFY + ": qp_access_flags may hold LOCAL_WRITE, REMOTE_WRITE,"
                    + " REMOTE_READ and REMOTE_ATOMIC only, got " + access);
        }
        if (type == QueuePairType.UC && (access.contains(AccessFlag.REMOTE_READ) || access.contains(AccessFlag.REMOTE_ATOMIC))) {
            throw new IllegalArgumentException(MODIFY + ": UC supports no RDMA READ or atomics, got " + access);
        }
        return bits;
    }

    /** Checks the INIT port ({@code 1..ports}) and P_Key index (16 bits). */
    static void checkInit(int port, int pkeyIndex, int ports) {
        if (port < 1 || port > ports) {
            throw new IllegalArgumentException(MODIFY + ": port must be in 1.." + ports + ", got " + port);
        }
        if (pkeyIndex < 0 || pkeyIndex > 0xFFFF) {
            throw new IllegalArgumentException(MODIFY + ": pkey_index must be in 0..65535, got " + pkeyIndex);
        }
    }

    /** {@code qp_state = INIT}, {@code pkey_index}, {@code port_num}; the caller adds access flags or the Q_Key. */
    static void writeInit(MemorySegment attr, int port, int pkeyIndex) {
        ibv_qp_attr.qp_state(attr, QueuePairState.INIT.value());
        ibv_qp_attr.pkey_index(attr, (short) pkeyIndex);
        ibv_qp_attr.port_num(attr, (byte) port);
    }

    /**
     * Checks a remote endpoint against the local port it is reached through: a RoCE port needs a
     * GID (there are no LIDs on Ethernet), and the path MTU cannot exceed the port's active MTU.
     */
    static void checkRemote(RemoteEndpoint remote, int port, PortAttributes portAttributes) {
        if (portAttributes.isEthernet() && !remote.isGlobal()) {
            throw new IllegalArgumentException(MODIFY + ": port " + port + " is RoCE (Ethernet link layer):"
                    + " the remote endpoint needs a GID and a source GID index (RemoteEndpoint.global)");
        }
        if (remote.mtu().value() > portAttributes.activeMtu().value()) {
            throw new IllegalArgumentException(MODIFY + ": path_mtu " + remote.mtu() + " exceeds port " + port
                    + "'s active MTU " + portAttributes.activeMtu());
        }
    }

    /** The RTR attributes of a connected queue pair; the RC-only ones only for RC. */
    static void writeRtr(MemorySegment attr, QueuePairType type, RemoteEndpoint remote, int port,
                         int maxDestReadAtomic, int minRnrTimer) {
        ibv_qp_attr.qp_state(attr, QueuePairState.RTR.value());
        ibv_qp_attr.path_mtu(attr, remote.mtu().value());
        ibv_qp_attr.dest_qp_num(attr, remote.qpn());
        ibv_qp_attr.rq_psn(attr, remote.psn());
        remote.writeAddressVector(ibv_qp_attr.ah_attr(attr), port);
        if (type == QueuePairType.RC) {
            ibv_qp_attr.max_dest_rd_atomic(attr, (byte) maxDestReadAtomic);
            ibv_qp_attr.min_rnr_timer(attr, (byte) minRnrTimer);
        }
    }

    /** The RTS attributes; the RC-only ones only for RC. */
    static void writeRts(MemorySegment attr, QueuePairType type, ReadyToSendOptions options, int maxReadAtomic) {
        ibv_qp_attr.qp_state(attr, QueuePairState.RTS.value());
        ibv_qp_attr.sq_psn(attr, options.sqPsn());
        if (type == QueuePairType.RC) {
            ibv_qp_attr.timeout(attr, (byte) options.timeout());
            ibv_qp_attr.retry_cnt(attr, (byte) options.retryCount());
            ibv_qp_attr.rnr_retry(attr, (byte) options.rnrRetry());
            ibv_qp_attr.max_rd_atomic(attr, (byte) maxReadAtomic);
        }
    }

    /**
     * A read/atomic depth: the device's ({@code FROM_DEVICE}, at least 1 so RDMA READ works at
     * all) or an explicit value no larger than the device's.
     */
    static int readAtomicDepth(String field, int requested, String limitName, int deviceLimit) {
        if (requested == ReadyToSendOptions.FROM_DEVICE) {
            return Math.max(1, Math.min(255, deviceLimit));
        }
        if (requested > Math.max(1, deviceLimit)) {
            throw new IllegalArgumentException(MODIFY + ": " + field + " must be at most " + deviceLimit
                    + " (device " + limitName + "), got " + requested);
        }
        return requested;
    }
}
