package dev.panamaverbs.testkit;

import dev.panamaverbs.testkit.DeviceCapability.Facts;
import dev.panamaverbs.values.AtomicCapability;
import dev.panamaverbs.values.LinkLayer;
import dev.panamaverbs.values.TransportType;
import java.util.EnumSet;
import java.util.Optional;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Capabilities decided from reported values: what rxe and siw report (docs/siw.md), without a device. */
class DeviceCapabilityTest {
    /** What SoftRoCE reports: InfiniBand transport, atomics, memory windows, SRQs, an Ethernet port. */
    private static final Facts RXE = new Facts(TransportType.IB, AtomicCapability.HCA, 8192, 917503, LinkLayer.ETHERNET);
    /** What soft-iWARP reports: iWARP transport, atomic_cap NONE, max_mw 0, SRQs, an Ethernet port. */
    private static final Facts SIW = new Facts(TransportType.IWARP, AtomicCapability.NONE, 0, 1024, LinkLayer.ETHERNET);

    @Test
    void softRoceHasEveryCapability() {
        for (DeviceCapability capability : DeviceCapability.values()) {
            assertEquals(Optional.empty(), capability.lackedBecause(RXE), capability.name());
        }
    }

    @Test
    void softIwarpLacksAtomicsUdWindowsAndConnectingWithoutCmEachNamingTheReportedValue() {
        assertEquals(Optional.of("atomic_cap NONE"), DeviceCapability.ATOMICS.lackedBecause(SIW));
        assertEquals(Optional.of("transport IWARP"), DeviceCapability.UD.lackedBecause(SIW));
        assertEquals(Optional.of("transport IWARP"), DeviceCapability.CONNECT_WITHOUT_CM.lackedBecause(SIW));
        assertEquals(Optional.of("max_mw 0"), DeviceCapability.MEMORY_WINDOWS.lackedBecause(SIW));
        assertEquals(Optional.empty(), DeviceCapability.SHARED_RECEIVE_QUEUES.lackedBecause(SIW));
    }

    @Test
    void softIwarpLacksWhatOnlyTheInfiniBandTransportHasNamingItsTransport() {
        // ROCE too: siw's port is Ethernet, but not on the InfiniBand transport.
        for (DeviceCapability capability : EnumSet.of(DeviceCapability.UC, DeviceCapability.RNR_NAKS,
                DeviceCapability.ERRORS_KEEP_THE_CONNECTION, DeviceCapability.PARTITION_KEYS, DeviceCapability.ROCE)) {
            assertEquals(Optional.of("transport IWARP"), capability.lackedBecause(SIW), capability.name());
        }
    }

    @Test
    void anInfiniBandPortIsNotRoceButHasTheRestOfTheTransport() {
        Facts infiniBand = new Facts(TransportType.IB, AtomicCapability.HCA, 1, 1, LinkLayer.INFINIBAND);
        assertEquals(Optional.of("link_layer INFINIBAND"), DeviceCapability.ROCE.lackedBecause(infiniBand));
        assertEquals(Optional.empty(), DeviceCapability.RNR_NAKS.lackedBecause(infiniBand));
        assertEquals(Optional.empty(), DeviceCapability.PARTITION_KEYS.lackedBecause(infiniBand));
    }

    @Test
    void noSharedReceiveQueuesWhenMaxSrqIsZero() {
        Facts none = new Facts(TransportType.IB, AtomicCapability.HCA, 1, 0, LinkLayer.ETHERNET);
        assertEquals(Optional.of("max_srq 0"), DeviceCapability.SHARED_RECEIVE_QUEUES.lackedBecause(none));
    }

    @Test
    void theSkipReasonNamesCapabilityDeviceAndValue() {
        assertEquals("capability ATOMICS: siw0 reports atomic_cap NONE",
                DeviceCapability.ATOMICS.skipReason("siw0", "atomic_cap NONE"));
    }

    @Test
    void factsNeedTransportAtomicsAndLinkLayer() {
        assertThrows(NullPointerException.class, () -> new Facts(null, AtomicCapability.NONE, 0, 0, LinkLayer.ETHERNET));
        assertThrows(NullPointerException.class, () -> new Facts(TransportType.IB, null, 0, 0, LinkLayer.ETHERNET));
        assertThrows(NullPointerException.class, () -> new Facts(TransportType.IB, AtomicCapability.NONE, 0, 0, null));
    }
}
