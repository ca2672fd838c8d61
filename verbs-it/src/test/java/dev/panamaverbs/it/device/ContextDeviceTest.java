package dev.panamaverbs.it.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panamaverbs.values.AccessFlag;
import dev.panamaverbs.CompletionChannel;
import dev.panamaverbs.CompletionQueue;
import dev.panamaverbs.CompletionQueueOptions;
import dev.panamaverbs.Completions;
import dev.panamaverbs.Context;
import dev.panamaverbs.Device;
import dev.panamaverbs.values.DeviceAttributes;
import dev.panamaverbs.values.ExtendedDeviceAttributes;
import dev.panamaverbs.values.GidEntry;
import dev.panamaverbs.values.GidType;
import dev.panamaverbs.values.LinkLayer;
import dev.panamaverbs.values.NodeType;
import dev.panamaverbs.values.PortAttributes;
import dev.panamaverbs.values.PortState;
import dev.panamaverbs.ProtectionDomain;
import dev.panamaverbs.values.SharedReceiveQueueOptions;
import dev.panamaverbs.Verbs;
import dev.panamaverbs.testkit.DeviceCapability;
import dev.panamaverbs.testkit.DeviceTest;
import dev.panamaverbs.testkit.TestDevice;
import java.lang.foreign.Arena;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.function.Executable;

/** Devices, contexts and their queries on a real device (rxe0 in the VM) (issue 4). */
class ContextDeviceTest {
    static Context open(TestDevice device) {
        return Verbs.device(device.name()).orElseThrow(() -> new AssertionError(device.name() + " is not listed")).open();
    }

    @DeviceTest
    void listsTheDeviceWithItsIdentity(TestDevice testDevice) {
        Device device = Verbs.device(testDevice.name()).orElseThrow();
        assertTrue(Verbs.devices().contains(device));
        assertNotEquals(0L, device.nodeGuid(), "node GUID");
        assertTrue(device.nodeGuidString().matches("[0-9a-f]{4}(:[0-9a-f]{4}){3}"), device.nodeGuidString());
        try (Context context = device.open()) {
            assertSame(device, context.device());
            assertEquals(device.nodeGuid(), context.queryDevice().nodeGuid(),
                    "ibv_get_device_guid and ibv_query_device agree once both are in host order");
        }
    }

    /**
     * The node type (sysfs {@code node_type}) is the one the transport ({@code transport_type})
     * goes with: rxe registers as an InfiniBand channel adapter (RoCE is IB transport over
     * Ethernet), siw as an iWARP RNIC.
     */
    @DeviceTest
    void theNodeTypeIsTheOneItsTransportGoesWith(TestDevice testDevice) {
        Device device = Verbs.device(testDevice.name()).orElseThrow();
        switch (device.transportType()) {
            case IB -> {
                assertEquals(NodeType.CA, device.nodeType(), device.toString());
                assertTrue(device.toString().contains("CA/IB"), device.toString());
            }
            case IWARP -> {
                assertEquals(NodeType.RNIC, device.nodeType(), device.toString());
                assertTrue(device.toString().contains("RNIC/IWARP"), device.toString());
            }
            default -> throw new AssertionError("neither the InfiniBand nor the iWARP transport: " + device);
        }
    }

    /**
     * ibv_query_device_ex runs on rxe (rdma-core's rxe provider implements query_device_ex through
     * the generic ibv_cmd_query_device_any), so the extended part is present, and agrees with the
     * basic part. rxe emulates no hardware clock: no completion timestamps, core clock 0.
     */
    @DeviceTest
    void extendedDeviceAttributesArePresentOnSoftRoce(TestDevice device) {
        try (Context context = open(device)) {
            DeviceAttributes attributes = context.queryDevice();
            ExtendedDeviceAttributes extended = attributes.extended().orElseThrow(() -> new AssertionError(
                    "ibv_query_device_ex did not run on " + device.name() + ": " + attributes));
            System.out.println(device.name() + " extended attributes: " + extended);
            assertEquals(0L, extended.completionTimestampMask(), "rxe has no completion timestamps");
            assertEquals(0L, extended.hcaCoreClockKhz(), "rxe has no HCA clock");
            assertEquals(attributes.capabilities(), context.queryDevice().capabilities(), "stable across queries");
            assertEquals(1, attributes.portCount(), "rxe has one port");
        }
    }

    @DeviceTest
    void queriesDeviceLimits(TestDevice device) {
        try (Context context = open(device)) {
            DeviceAttributes attributes = context.queryDevice();
            assertTrue(attributes.maxQp() > 0, "max_qp");
            assertTrue(attributes.maxQpWr() > 0, "max_qp_wr");
            assertTrue(attributes.maxSge() > 0, "max_sge");
            assertTrue(attributes.maxCq() > 0, "max_cq");
            assertTrue(attributes.maxCqe() > 0, "max_cqe");
            assertTrue(attributes.maxPd() > 0, "max_pd");
            assertTrue(attributes.maxMr() > 0, "max_mr");
            assertNotEquals(0L, attributes.maxMrSize(), "max_mr_size");
            assertTrue(attributes.physicalPortCount() >= 1, "phys_port_cnt");
            assertEquals(attributes.physicalPortCount(), context.portCount());
            DeviceAttributes cached = context.maxAttributes();
            assertSame(cached, context.maxAttributes(), "cached for capability checks");
            assertEquals(attributes, cached, "limits do not change between queries");
        }
    }

    @DeviceTest
    void queriesTheActiveRoCEPort(TestDevice device) {
        try (Context context = open(device)) {
            PortAttributes port = context.queryPort(device.port());
            assertEquals(device.port(), port.port());
            assertEquals(PortState.ACTIVE, port.state());
            assertTrue(port.isActive());
            // link_layer is outside the compat prefix: ETHERNET proves the full query ran.
            assertEquals(LinkLayer.ETHERNET, port.linkLayer());
            assertTrue(port.grhRequired());
            assertTrue(port.gidTableLength() > device.gidIndex(), "gid_tbl_len " + port.gidTableLength());
            assertTrue(port.activeMtu().compareTo(port.maxMtu()) <= 0, port.activeMtu() + " <= " + port.maxMtu());
            assertTrue(port.maxMessageSize() > 0, "max_msg_sz");
            assertEquals("LINK_UP", port.physicalStateName());
        }
    }

    @DeviceTest
    void rejectsPortsThatDoNotExistBeforeCallingTheVerb(TestDevice device) {
        try (Context context = open(device)) {
            int beyond = context.portCount() + 1;
            IllegalArgumentException zero = assertThrows(IllegalArgumentException.class, () -> context.queryPort(0));
            assertTrue(zero.getMessage().startsWith("ibv_query_port: port must be at least 1"), zero.getMessage());
            assertThrows(IllegalArgumentException.class, () -> context.queryPort(beyond));
            assertThrows(IllegalArgumentException.class, () -> context.gidTable(beyond));
            assertThrows(IllegalArgumentException.class, () -> context.queryPkey(0, 0));
            assertThrows(IllegalArgumentException.class, () -> context.queryGid(beyond, 0));
        }
    }

    @DeviceTest
    void gidTableHasTheRoCEv2Ipv4EntryChosenByType(TestDevice device) {
        try (Context context = open(device)) {
            List<GidEntry> table = context.gidTable(device.port());
            assertFalse(table.isEmpty(), "GID table");
            for (int i = 0; i < table.size(); i++) {
                GidEntry entry = table.get(i);
                assertFalse(entry.gid().isZero(), "unused slots are left out: " + entry);
                assertEquals(device.port(), entry.port());
                if (i > 0) {
                    assertTrue(table.get(i - 1).index() < entry.index(), "sorted by index");
                }
            }
            System.out.println(device.name() + " GID table: " + table);
            DeviceCapability.ROCE.require(context); // IP-based GIDs typed by RoCE version
            GidEntry roceV2 = context.roceV2Ipv4Gid(device.port()).orElseThrow(() -> new AssertionError(table.toString()));
            assertEquals(GidType.ROCE_V2, roceV2.type());
            assertTrue(roceV2.gid().isIpv4Mapped(), roceV2.toString());
            assertEquals(device.gidIndex(), roceV2.index(), "the VM's RoCE v2 IPv4 GID sits at the configured index");
            assertTrue(roceV2.netdevIndex() > 0, "ndev_ifindex");
            assertTrue(roceV2.netdevName().isPresent(), "netdev name of " + roceV2);
            assertTrue(roceV2.gid().toAddressString().startsWith("::ffff:"), roceV2.gid().toAddressString());
            assertTrue(table.contains(roceV2));
            assertEquals(roceV2, context.queryGid(device.port(), roceV2.index()).orElseThrow(), "ibv_query_gid_ex agrees");
        }
    }

    @DeviceTest
    void unusedGidSlotsAreEmptyAndIndexesAreChecked(TestDevice device) {
        try (Context context = open(device)) {
            int length = context.queryPort(device.port()).gidTableLength();
            IllegalArgumentException beyond = assertThrows(IllegalArgumentException.class,
                    () -> context.queryGid(device.port(), length));
            assertTrue(beyond.getMessage().startsWith("ibv_query_gid_ex: index"), beyond.getMessage());
            assertThrows(IllegalArgumentException.class, () -> context.queryGid(device.port(), -1));
            // A RoCE table has a slot per IP address and more slots than addresses; siw's one slot holds its MAC.
            DeviceCapability.ROCE.require(context);
            assertTrue(context.queryGid(device.port(), length - 1).isEmpty(), "the last slot of a fresh rxe table is unused");
        }
    }

    @DeviceTest
    void defaultPkeyIsFullMembership(TestDevice device) {
        try (Context context = open(device)) {
            DeviceCapability.PARTITION_KEYS.require(context);
            assertEquals(0xffff, context.queryPkey(device.port(), 0));
            int length = context.queryPort(device.port()).pkeyTableLength();
            assertThrows(IllegalArgumentException.class, () -> context.queryPkey(device.port(), length));
        }
    }

    @SuppressWarnings("try") // closes inside its own try on purpose: closing twice must be harmless
    @DeviceTest
    void twoContextsOnOneDeviceAreIndependent(TestDevice device) {
        try (Context first = open(device); Context second = open(device)) {
            first.close();
            assertTrue(first.isClosed());
            assertFalse(second.isClosed());
            assertEquals(PortState.ACTIVE, second.queryPort(device.port()).state());
        }
    }

    @DeviceTest
    void closeIsIdempotentAndUseAfterCloseNeverReachesNativeCode(TestDevice device) {
        Context context = open(device);
        var pd = context.allocateProtectionDomain();
        context.close();
        context.close();
        assertTrue(context.isClosed());
        assertTrue(pd.isClosed(), "closing the context closes what hangs off it");
        assertClosed("queryDevice", context::queryDevice);
        assertClosed("queryPort", () -> context.queryPort(device.port()));
        assertClosed("gidTable", () -> context.gidTable(device.port()));
        assertClosed("queryPkey", () -> context.queryPkey(device.port(), 0));
        assertClosed("pollAsyncEvent", () -> context.pollAsyncEvent(java.time.Duration.ZERO));
        assertClosed("setAsyncEventListener", () -> context.setAsyncEventListener(event -> { }));
        assertClosed("allocateProtectionDomain", context::allocateProtectionDomain);
        assertClosed("createCompletionChannel", context::createCompletionChannel);
        assertClosed("handle", context::handle);
        assertClosed("queryGid", () -> context.queryGid(device.port(), 0));
        assertClosed("roceV2Ipv4Gid", () -> context.roceV2Ipv4Gid(device.port()));
        assertClosed("createCompletionQueue", () -> context.createCompletionQueue(4));
        assertClosed("createCompletionQueue(options)", () -> context.createCompletionQueue(CompletionQueueOptions.of(4)));
    }

    /** What hung off a closed context is closed with it and throws naming itself, not the context. */
    @DeviceTest
    void childrenOfAClosedContextThrowNamingThemselves(TestDevice device) {
        Context context = open(device);
        CompletionChannel channel = context.createCompletionChannel();
        CompletionQueue cq = context.createCompletionQueue(4, channel, 0);
        ProtectionDomain pd = context.allocateProtectionDomain();
        String cqName = cq.toString();
        String channelName = channel.toString();
        String pdName = pd.toString();
        context.close();
        assertTrue(cq.isClosed() && channel.isClosed() && pd.isClosed());
        try (Arena arena = Arena.ofConfined()) {
            Completions wc = Completions.allocate(arena, 1);
            assertClosedNamed(cqName, "poll", () -> cq.poll(wc));
            assertClosedNamed(cqName, "requestNotification", () -> cq.requestNotification(false));
            assertClosedNamed(cqName, "resize", () -> cq.resize(8));
            assertClosedNamed(channelName, "awaitEvent", () -> channel.awaitEvent(Duration.ZERO));
            assertClosedNamed(pdName, "register", () -> pd.register(arena.allocate(4096, 4096),
                    EnumSet.of(AccessFlag.LOCAL_WRITE)));
            assertClosedNamed(pdName, "createSharedReceiveQueue",
                    () -> pd.createSharedReceiveQueue(SharedReceiveQueueOptions.of(4, 1)));
        }
    }

    private static void assertClosedNamed(String name, String what, Executable use) {
        IllegalStateException e = assertThrows(IllegalStateException.class, use, what);
        assertEquals(name + " is closed", e.getMessage(), what);
    }

    private static void assertClosed(String what, Executable use) {
        IllegalStateException e = assertThrows(IllegalStateException.class, use, what);
        assertTrue(e.getMessage().contains("Context[") && e.getMessage().contains("closed"), what + ": " + e.getMessage());
    }
}
