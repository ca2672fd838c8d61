package dev.panamaverbs.onesided;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panamaverbs.Device;
import dev.panamaverbs.values.AtomicCapability;
import dev.panamaverbs.values.NodeType;
import dev.panamaverbs.values.TransportType;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Which devices a {@link OneSidedChannel} refuses, decided from what they report, before any queue pair is made. */
class OneSidedSupportTest {
    private static Device device(String name, NodeType node, TransportType transport) {
        return new Device(name, 1, node, transport);
    }

    @Test
    void anInfiniBandTransportWithAtomicsIsAccepted() {
        assertEquals(Optional.empty(), OneSidedChannel.unsupportedBecause(device("rxe0", NodeType.CA, TransportType.IB),
                AtomicCapability.HCA));
        assertEquals(Optional.empty(), OneSidedChannel.unsupportedBecause(device("mlx5_0", NodeType.CA, TransportType.IB),
                AtomicCapability.GLOBAL));
    }

    @Test
    void anIwarpDeviceIsRefusedNamingTheCompanionsConnect() {
        String why = OneSidedChannel.unsupportedBecause(device("siw0", NodeType.RNIC, TransportType.IWARP),
                AtomicCapability.NONE).orElseThrow();
        assertTrue(why.startsWith("siw0 is an iWARP device") && why.contains("ibv_modify_qp") && why.contains("rdma_cm"), why);
    }

    @Test
    void aDeviceWithoutAtomicsIsRefusedNamingAtomicCap() {
        String why = OneSidedChannel.unsupportedBecause(device("efa_0", NodeType.CA, TransportType.IB),
                AtomicCapability.NONE).orElseThrow();
        assertTrue(why.contains("efa_0") && why.contains("atomic_cap NONE"), why);
    }
}
