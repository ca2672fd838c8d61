package dev.panamaverbs.it.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panamaverbs.values.AccessFlag;
import dev.panamaverbs.Context;
import dev.panamaverbs.values.Errno;
import dev.panamaverbs.values.MemoryAdvice;
import dev.panamaverbs.MemoryRegion;
import dev.panamaverbs.ProtectionDomain;
import dev.panamaverbs.SendWorkRequest;
import dev.panamaverbs.VerbsUnsupportedException;
import dev.panamaverbs.values.WorkRequestOpcode;
import dev.panamaverbs.testkit.CompletionWaiter;
import dev.panamaverbs.testkit.DeviceTest;
import dev.panamaverbs.testkit.RcLoopbackPair;
import dev.panamaverbs.testkit.RegisteredBuffer;
import dev.panamaverbs.testkit.TestDevice;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.EnumSet;
import java.util.Set;

/**
 * Memory region verbs of issue 10 item 2 on the device: {@code ibv_rereg_mr}
 * ({@link MemoryRegion#reregister}) and {@code ibv_advise_mr} ({@link MemoryRegion#advise}) with
 * on-demand paging. Each test prints what rxe did ("# RegionVerbsDeviceTest: ...") and checks it:
 * either the verb worked (and the data path proves it) or rxe refused it with an errno meaning
 * "not supported", carried by {@link VerbsUnsupportedException}.
 */
class RegionVerbsDeviceTest {
    private static final Set<AccessFlag> LOCAL = EnumSet.of(AccessFlag.LOCAL_WRITE);
    private static final Set<AccessFlag> REMOTE = EnumSet.of(AccessFlag.LOCAL_WRITE, AccessFlag.REMOTE_WRITE,
            AccessFlag.REMOTE_READ);

    /**
     * {@code ibv_rereg_mr(IBV_REREG_MR_CHANGE_ACCESS)}: a region registered for local access only
     * gets remote write, and an RDMA write with its (re-read) rkey lands in it.
     */
    @DeviceTest
    void reregisteringAddsRemoteWriteAccess(TestDevice device) {
        try (RcLoopbackPair pair = RcLoopbackPair.open(device); Arena arena = Arena.ofConfined()) {
            MemorySegment memory = arena.allocate(8192, 4096);
            MemoryRegion region = pair.protectionDomain().register(memory, LOCAL);
            try {
                region.reregister(REMOTE);
            } catch (VerbsUnsupportedException e) {
                System.out.println("# RegionVerbsDeviceTest: " + device.name() + " refuses ibv_rereg_mr (access): " + e.getMessage());
                assertEquals("ibv_rereg_mr", e.verb());
                assertTrue(Errno.meansUnsupported(e.errno()), e.getMessage());
                assertEquals(EnumSet.copyOf(LOCAL), region.access(), "the old registration stands");
                return;
            }
            System.out.println("# RegionVerbsDeviceTest: " + device.name() + " re-registered for access, lkey 0x"
                    + Integer.toHexString(region.lkey()) + " rkey 0x" + Integer.toHexString(region.rkey()));
            assertEquals(EnumSet.copyOf(REMOTE), region.access());
            RegisteredBuffer local = pair.firstBuffer().fillPattern(21);
            pair.first().postSend(SendWorkRequest.allocate(1).wrId(5).opcode(WorkRequestOpcode.RDMA_WRITE).signaled(true)
                    .sge(local.region(), 0, 4096).rdma(region.addressAt(1024, 4096), region.rkey()));
            CompletionWaiter.awaitSuccess(pair.firstQueue(), pair.completions());
            assertEquals(MemorySegment.mismatch(local.memory(), 0, 4096, memory, 1024, 5120), -1L,
                    "the RDMA write landed in the re-registered region");
        }
    }

    /**
     * {@code ibv_rereg_mr(IBV_REREG_MR_CHANGE_TRANSLATION | IBV_REREG_MR_CHANGE_ACCESS)}: the region
     * moves to other memory; a region owning its memory is refused before the verb.
     */
    @DeviceTest
    void reregisteringMovesTheRegionToOtherMemory(Context context, TestDevice device) {
        try (ProtectionDomain pd = context.allocateProtectionDomain(); Arena arena = Arena.ofConfined()) {
            MemoryRegion owning = pd.allocateMemoryRegion(4096, LOCAL);
            assertThrows(UnsupportedOperationException.class, () -> owning.reregister(arena.allocate(4096, 4096), LOCAL));
            MemorySegment first = arena.allocate(4096, 4096);
            MemorySegment second = arena.allocate(16384, 4096);
            MemoryRegion region = pd.register(first, LOCAL);
            try {
                region.reregister(second, REMOTE);
            } catch (VerbsUnsupportedException e) {
                System.out.println("# RegionVerbsDeviceTest: " + device.name() + " refuses ibv_rereg_mr (translation): "
                        + e.getMessage());
                assertTrue(Errno.meansUnsupported(e.errno()), e.getMessage());
                assertEquals(first.address(), region.memoryAddress(), "the old registration stands");
                return;
            }
            System.out.println("# RegionVerbsDeviceTest: " + device.name() + " re-registered to new memory");
            assertEquals(second.address(), region.memoryAddress());
            assertEquals(16384, region.length());
            assertEquals(second.address(), region.iova());
            assertEquals(second, region.memory());
        }
    }

    /**
     * {@code ibv_advise_mr(IBV_ADVISE_MR_ADVICE_PREFETCH_WRITE, IBV_ADVISE_MR_FLAG_FLUSH)} on an
     * on-demand-paging region where the device pages on demand ({@code odp_caps}), else on a
     * pinned region: it works, or rxe refuses it with "not supported".
     */
    @DeviceTest
    void advisingPrefetchesOrIsRefused(Context context, TestDevice device) {
        boolean odp = context.maxAttributes().extended().map(e -> e.onDemandPaging().supported()).orElse(false);
        boolean implicit = context.maxAttributes().extended().map(e -> e.onDemandPaging().implicitSupported()).orElse(false);
        System.out.println("# RegionVerbsDeviceTest: " + device.name() + " odp " + odp + ", implicit odp " + implicit);
        try (ProtectionDomain pd = context.allocateProtectionDomain(); Arena arena = Arena.ofConfined()) {
            EnumSet<AccessFlag> access = EnumSet.copyOf(LOCAL);
            if (odp) {
                access.add(AccessFlag.ON_DEMAND);
            }
            MemoryRegion region = pd.register(arena.allocate(65536, 4096), access);
            assertThrows(IndexOutOfBoundsException.class, () -> region.advise(MemoryAdvice.PREFETCH, 65536, 1, true));
            try {
                region.advise(MemoryAdvice.PREFETCH_WRITE, 0, 65536, true);
                System.out.println("# RegionVerbsDeviceTest: " + device.name() + " ibv_advise_mr prefetched (odp " + odp + ")");
            } catch (VerbsUnsupportedException e) {
                System.out.println("# RegionVerbsDeviceTest: " + device.name() + " refuses ibv_advise_mr (odp " + odp + "): "
                        + e.getMessage());
                assertEquals("ibv_advise_mr", e.verb());
                assertTrue(Errno.meansUnsupported(e.errno()), e.getMessage());
            }
        }
    }
}
