package dev.panamaverbs.cm;

import dev.panamaverbs.values.NativeEnum;
import dev.panamaverbs.values.QueuePairType;
import dev.panamaverbs.ffm.rdmacm.RdmaCmConstants;

/**
 * The rdma_cm port space of a connection identifier, C {@code enum rdma_port_space}: which
 * transport the identifier connects and which ports it shares.
 */
public enum PortSpace implements NativeEnum {
    /** {@code RDMA_PS_TCP}: reliable connected (RC) queue pairs, connect/accept/disconnect. */
    TCP(RdmaCmConstants.RDMA_PS_TCP, QueuePairType.RC),
    /** {@code RDMA_PS_UDP}: unreliable datagram (UD) queue pairs; "connect" resolves the peer's QPN and Q_Key. */
    UDP(RdmaCmConstants.RDMA_PS_UDP, QueuePairType.UD),
    /** {@code RDMA_PS_IB}: any IB service, RC or UD. */
    IB(RdmaCmConstants.RDMA_PS_IB, QueuePairType.RC),
    /** {@code RDMA_PS_IPOIB}: UD, IPoIB's port space. */
    IPOIB(RdmaCmConstants.RDMA_PS_IPOIB, QueuePairType.UD);

    private final int value;
    private final QueuePairType queuePairType;

    PortSpace(int value, QueuePairType queuePairType) {
        this.value = value;
        this.queuePairType = queuePairType;
    }

    @Override
    public int value() {
        return value;
    }

    /**
     * The queue pair type rdma_cm gives identifiers of this space ({@code RC} or {@code UD}).
     *
     * @return the queue pair type rdma_cm gives identifiers of this space ({@code RC} or {@code UD}).
     */
    public QueuePairType queuePairType() {
        return queuePairType;
    }

    /**
     * True for the datagram spaces (UDP, IPoIB): "connect" is a service ID resolution (SIDR).
     *
     * @return true for the datagram spaces (UDP, IPoIB): "connect" is a service ID resolution (SIDR).
     */
    public boolean isDatagram() {
        return queuePairType == QueuePairType.UD;
    }

    /** The constant for a C value, or null. */
    static PortSpace orNull(int value) {
        for (PortSpace space : values()) {
            if (space.value == value) {
                return space;
            }
        }
        return null;
    }
}
