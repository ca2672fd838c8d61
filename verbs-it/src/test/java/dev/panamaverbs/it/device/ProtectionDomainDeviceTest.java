package dev.panamaverbs.it.device;

import dev.panamaverbs.it.support.DeviceScope;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.panamaverbs.values.AccessFlag;
import dev.panamaverbs.AddressHandle;
import dev.panamaverbs.AddressHandleAttributes;
import dev.panamaverbs.Context;
import dev.panamaverbs.values.GidEntry;
import dev.panamaverbs.MemoryRegion;
import dev.panamaverbs.MemoryWindow;
import dev.panamaverbs.values.MemoryWindowType;
import dev.panamaverbs.ProtectionDomain;
import dev.panamaverbs.Verbs;
import dev.panamaverbs.VerbsUnsupportedException;
import dev.panamaverbs.Capability;
import dev.panamaverbs.testkit.DeviceTest;
import dev.panamaverbs.testkit.TestDevice;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.function.Executable;

/** Protection domains and what hangs off them: memory regions, windows, address handles (issue 4). */
class ProtectionDomainDeviceTest {
    private static final Set<AccessFlag> ALL_REMOTE = EnumSet.of(
            AccessFlag.LOCAL_WRITE, AccessFlag.REMOTE_WRITE, AccessFlag.REMOTE_READ, AccessFlag.REMOTE_ATOMIC);

    private static void assertClosedUse(String what, Executable use) {
        IllegalStateException e = assertThrows(IllegalStateException.class, use, what);
        assertTrue(e.getMessage().contains("closed"), what + ": " + e.getMessage());
    }

    @DeviceTest
    void registersNativeMemory(TestDevice device) {
        try (Context context = DeviceScope.openContext(device); ProtectionDomain pd = context.allocateProtectionDomain();
                Arena arena = Arena.ofConfined()) {
            MemorySegment buffer = arena.allocate(8192, 4096);
            MemoryRegion mr = pd.register(buffer, ALL_REMOTE);
            assertNotEquals(0, mr.lkey(), "lkey");
            assertNotEquals(0, mr.rkey(), "rkey");
            assertEquals(buffer.address(), mr.memoryAddress());
            assertEquals(buffer.address(), mr.iova(), "without an explicit iova the device sees the memory's address");
            assertEquals(8192, mr.length());
            assertSame(buffer, mr.memory());
            assertEquals(ALL_REMOTE, mr.access());
            assertSame(pd, mr.protectionDomain());
            assertTrue(mr.contains(buffer.address(), 8192));
            assertTrue(mr.contains(buffer.address() + 100, 200));
            assertFalse(mr.contains(buffer.address() + 1, 8192));
            assertFalse(mr.contains(buffer.address() - 1, 1));
            assertEquals(buffer.address() + 16, mr.addressAt(16, 32));
            assertThrows(IndexOutOfBoundsException.class, () -> mr.addressAt(8190, 4));
            mr.slice(8, 8).set(ValueLayout.JAVA_LONG, 0, 0x1234L);
            assertEquals(0x1234L, buffer.get(ValueLayout.JAVA_LONG, 8), "slice views the registered memory");

            MemoryRegion readOnly = pd.register(buffer.asSlice(0, 4096), EnumSet.of(AccessFlag.REMOTE_READ));
            assertNotEquals(mr.lkey(), readOnly.lkey(), "each registration has its own keys");
        }
    }

    @DeviceTest
    void rejectsBadRegistrationsBeforeTheVerb(TestDevice device) {
        try (Context context = DeviceScope.openContext(device); ProtectionDomain pd = context.allocateProtectionDomain();
                Arena arena = Arena.ofConfined()) {
            IllegalArgumentException heap = assertThrows(IllegalArgumentException.class,
                    () -> pd.register(MemorySegment.ofArray(new byte[4096]), Set.of(AccessFlag.LOCAL_WRITE)));
            assertTrue(heap.getMessage().startsWith("ibv_reg_mr: heap segments cannot be registered"), heap.getMessage());
            assertThrows(IllegalArgumentException.class,
                    () -> pd.register(arena.allocate(16).asSlice(0, 0), Set.of(AccessFlag.LOCAL_WRITE)));
            assertThrows(IllegalArgumentException.class,
                    () -> pd.register(arena.allocate(4096), EnumSet.of(AccessFlag.REMOTE_WRITE)));
            Arena closed = Arena.ofConfined();
            MemorySegment gone = closed.allocate(4096);
            closed.close();
            assertThrows(IllegalArgumentException.class, () -> pd.register(gone, Set.of(AccessFlag.LOCAL_WRITE)));
            assertThrows(NullPointerException.class, () -> pd.register(null, Set.of()));
            assertThrows(NullPointerException.class, () -> pd.register(arena.allocate(64), null));
            // Absurd sizes of memory the region would allocate: a clear refusal, not an OutOfMemoryError.
            for (long absurd : new long[] {Long.MAX_VALUE, 1L << 50}) {
                IllegalArgumentException huge = assertThrows(IllegalArgumentException.class,
                        () -> pd.allocateMemoryRegion(absurd, Set.of(AccessFlag.LOCAL_WRITE)));
                assertTrue(huge.getMessage().startsWith("ibv_reg_mr: length " + absurd + " exceeds "), huge.getMessage());
            }
        }
    }

    @DeviceTest
    void onDemandPagingIsUnsupportedWithoutOdp(TestDevice device) {
        try (Context context = DeviceScope.openContext(device); ProtectionDomain pd = context.allocateProtectionDomain();
                Arena arena = Arena.ofConfined()) {
            boolean odp = context.maxAttributes().extended().map(e -> e.onDemandPaging().supported()).orElse(false);
            assumeTrue(!odp, device.name() + " supports on-demand paging");
            VerbsUnsupportedException e = assertThrows(VerbsUnsupportedException.class,
                    () -> pd.register(arena.allocate(4096), EnumSet.of(AccessFlag.LOCAL_WRITE, AccessFlag.ON_DEMAND)));
            assertEquals("ibv_reg_mr", e.verb());
        }
    }

    @DeviceTest
    void registersAtAChosenIova(TestDevice device) {
        assumeTrue(Verbs.capabilities().contains(Capability.REG_MR_IOVA2), "libibverbs lacks ibv_reg_mr_iova2");
        try (Context context = DeviceScope.openContext(device); ProtectionDomain pd = context.allocateProtectionDomain();
                Arena arena = Arena.ofConfined()) {
            MemorySegment buffer = arena.allocate(4096, 4096);
            long iova = 0x7_0000_0000L;
            MemoryRegion mr = pd.register(buffer, ALL_REMOTE, iova);
            assertEquals(iova, mr.iova());
            assertEquals(buffer.address(), mr.memoryAddress());
            assertEquals(4096, mr.length());
            assertNotEquals(0, mr.rkey());
            assertTrue(mr.contains(iova, 4096), "work requests address the region from its iova");
            if (buffer.address() != iova) {
                assertFalse(mr.contains(buffer.address(), 4096), "the memory's own address is not the device's view");
            }
            assertEquals(iova + 100, mr.addressAt(100, 8));
        }
    }

    @DeviceTest
    void dmabufIsUnsupportedOnSoftRoce(TestDevice device) {
        assumeTrue(device.name().startsWith("rxe"), "only SoftRoCE is known to lack dma-buf");
        try (Context context = DeviceScope.openContext(device); ProtectionDomain pd = context.allocateProtectionDomain()) {
            // rxe has no reg_dmabuf_mr op: the answer is EOPNOTSUPP before the fd is looked at.
            VerbsUnsupportedException e = assertThrows(VerbsUnsupportedException.class,
                    () -> pd.registerDmabuf(0, 4096, 0, 0, EnumSet.of(AccessFlag.LOCAL_WRITE)));
            assertEquals("ibv_reg_dmabuf_mr", e.verb());
            assertTrue(pd.context() == context && !pd.isClosed(), "a refused registration leaves the domain usable");
        }
    }

    @DeviceTest
    void allocatesMemoryWindowsOfBothTypes(TestDevice device) {
        try (Context context = DeviceScope.openContext(device); ProtectionDomain pd = context.allocateProtectionDomain()) {
            for (MemoryWindowType type : MemoryWindowType.values()) {
                MemoryWindow mw;
                try {
                    mw = pd.allocateMemoryWindow(type);
                } catch (VerbsUnsupportedException e) {
                    continue; // a device may offer one type only; rxe offers both
                }
                assertEquals(type, mw.type());
                assertSame(pd, mw.protectionDomain());
                assertNotEquals(0, mw.rkey());
                mw.close();
                assertClosedUse("rkey of a closed window", mw::rkey);
            }
        }
    }

    @DeviceTest
    void createsAnAddressHandleWithAGrh(TestDevice device) {
        try (Context context = DeviceScope.openContext(device); ProtectionDomain pd = context.allocateProtectionDomain()) {
            GidEntry source = DeviceScope.sourceGid(context, device);
            AddressHandleAttributes attributes = AddressHandleAttributes.roce(source, source.gid());
            AddressHandle ah = pd.createAddressHandle(attributes);
            assertEquals(attributes, ah.attributes());
            assertSame(pd, ah.protectionDomain());
            ah.close();
            assertClosedUse("attributes of a closed address handle", ah::attributes);
        }
    }

    @DeviceTest
    void rocePortsRefuseAddressesWithoutGrh(TestDevice device) {
        try (Context context = DeviceScope.openContext(device); ProtectionDomain pd = context.allocateProtectionDomain()) {
            assumeTrue(context.queryPort(device.port()).isEthernet(), "port " + device.port() + " is not RoCE");
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> pd.createAddressHandle(AddressHandleAttributes.local(device.port(), 1)));
            assertTrue(e.getMessage().startsWith("ibv_create_ah:") && e.getMessage().contains("GRH"), e.getMessage());
            int tableLength = context.queryPort(device.port()).gidTableLength();
            GidEntry source = DeviceScope.sourceGid(context, device);
            assertThrows(IllegalArgumentException.class, () -> pd.createAddressHandle(
                    AddressHandleAttributes.global(device.port(), tableLength, source.gid())));
            assertThrows(IllegalArgumentException.class, () -> pd.createAddressHandle(
                    AddressHandleAttributes.global(context.portCount() + 1, source.index(), source.gid())));
        }
    }

    @DeviceTest
    void everyUseAfterCloseIsAnIllegalStateException(TestDevice device) {
        try (Context context = DeviceScope.openContext(device); Arena arena = Arena.ofConfined()) {
            ProtectionDomain pd = context.allocateProtectionDomain();
            MemoryRegion mr = pd.register(arena.allocate(4096), EnumSet.of(AccessFlag.LOCAL_WRITE));
            mr.close();
            assertClosedUse("lkey", mr::lkey);
            assertClosedUse("rkey", mr::rkey);
            assertClosedUse("memoryAddress", mr::memoryAddress);
            assertClosedUse("length", mr::length);
            assertClosedUse("iova", mr::iova);
            assertClosedUse("access", mr::access);
            assertClosedUse("memory", mr::memory);
            assertClosedUse("contains", () -> mr.contains(0, 0));
            assertClosedUse("addressAt", () -> mr.addressAt(0, 1));
            assertTrue(mr.toString().startsWith("MemoryRegion["), "toString still works: " + mr);

            pd.close();
            assertClosedUse("register", () -> pd.register(arena.allocate(64), Set.of()));
            assertClosedUse("allocateMemoryWindow", () -> pd.allocateMemoryWindow(MemoryWindowType.TYPE_2));
            assertClosedUse("createAddressHandle", () -> pd.createAddressHandle(
                    AddressHandleAttributes.roce(DeviceScope.sourceGid(context, device), DeviceScope.sourceGid(context, device).gid())));
            assertClosedUse("context", pd::context);
            assertClosedUse("handle", pd::handle);
        }
    }

    @SuppressWarnings("try") // closes inside its own try on purpose: closing twice must be harmless
    @DeviceTest
    void closingTheDomainClosesItsChildrenFirst(TestDevice device) {
        try (Context context = DeviceScope.openContext(device); Arena arena = Arena.ofConfined()) {
            ProtectionDomain pd = context.allocateProtectionDomain();
            MemoryRegion mr = pd.register(arena.allocate(4096), EnumSet.of(AccessFlag.LOCAL_WRITE, AccessFlag.MW_BIND));
            MemoryWindow mw = pd.allocateMemoryWindow(MemoryWindowType.TYPE_2);
            GidEntry source = DeviceScope.sourceGid(context, device);
            AddressHandle ah = pd.createAddressHandle(AddressHandleAttributes.roce(source, source.gid()));

            pd.close(); // ibv_dealloc_pd would fail with EBUSY if a child were still alive
            assertTrue(pd.isClosed() && mr.isClosed() && mw.isClosed() && ah.isClosed());
            pd.close();
            mr.close();
            mw.close();
            ah.close(); // closing again is a no-op

            ProtectionDomain second = context.allocateProtectionDomain();
            MemoryRegion secondMr = second.register(arena.allocate(4096), EnumSet.of(AccessFlag.LOCAL_WRITE));
            context.close(); // the context closes the domain, which closes the region
            assertTrue(second.isClosed() && secondMr.isClosed());
        }
    }

    @DeviceTest
    void aRegionCanOwnItsMemory(TestDevice device) {
        try (Context context = DeviceScope.openContext(device); ProtectionDomain pd = context.allocateProtectionDomain()) {
            MemoryRegion mr = pd.allocateMemoryRegion(10_000, ALL_REMOTE);
            MemorySegment memory = mr.memory();
            assertEquals(10_000, mr.length());
            assertEquals(0, memory.address() % 4096, "page-aligned");
            assertEquals(memory.address(), mr.memoryAddress());
            assertEquals(0, memory.get(ValueLayout.JAVA_LONG, 9_992), "zeroed");
            memory.set(ValueLayout.JAVA_LONG, 0, 42L);
            assertNotEquals(0, mr.rkey());
            mr.close(); // deregisters, then frees the memory
            assertThrows(IllegalStateException.class, () -> memory.get(ValueLayout.JAVA_LONG, 0),
                    "the owned memory is freed with the region");
            assertThrows(IllegalArgumentException.class, () -> pd.allocateMemoryRegion(0, ALL_REMOTE));
            assertThrows(IllegalArgumentException.class,
                    () -> pd.allocateMemoryRegion(4096, EnumSet.of(AccessFlag.REMOTE_ATOMIC)));
        }
    }

    @DeviceTest
    void closingTheArenaWhileRegisteredCannotCrash(TestDevice device) {
        try (Context context = DeviceScope.openContext(device); ProtectionDomain pd = context.allocateProtectionDomain()) {
            Arena arena = Arena.ofConfined();
            MemoryRegion mr = pd.register(arena.allocate(65536), EnumSet.of(AccessFlag.LOCAL_WRITE));
            arena.close(); // the caller's bug: the kernel still pins the pages until deregistration
            assertNotEquals(0, mr.lkey());
            assertThrows(IllegalStateException.class, () -> mr.memory().get(ValueLayout.JAVA_BYTE, 0),
                    "Java access goes through the closed arena's checks");
            mr.close(); // ibv_dereg_mr unpins; nothing touched freed memory
        }
    }
}
