package dev.panamaverbs.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.panamaverbs.AccessFlag;
import dev.panamaverbs.AddressHandle;
import dev.panamaverbs.AddressHandleAttributes;
import dev.panamaverbs.Context;
import dev.panamaverbs.Device;
import dev.panamaverbs.GidEntry;
import dev.panamaverbs.MemoryRegion;
import dev.panamaverbs.MemoryWindow;
import dev.panamaverbs.MemoryWindowType;
import dev.panamaverbs.ProtectionDomain;
import dev.panamaverbs.Verbs;
import dev.panamaverbs.testkit.DeviceTest;
import dev.panamaverbs.testkit.TestDevice;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Issue 4, "no leaks": what the kernel counts returns to where it started once everything is
 * closed, and many open/allocate/register/close cycles leave the process's native footprint flat.
 */
class ResourceLeakDeviceTest {
    /** Cycles of the churn test; {@code -Dpanamaverbs.leakCycles=N} changes it. */
    private static final int CYCLES = Integer.getInteger("panamaverbs.leakCycles", 10_000);
    private static final int WARM_UP_CYCLES = Math.max(1, CYCLES / 20);
    /**
     * Allowed growth of the resident set over all cycles. Generous on purpose: the JVM's own
     * heap, code cache and malloc arenas move by megabytes. A real leak does not stay under it:
     * a lost context (its provider structures, its command fd's buffers) or a lost registration
     * of the 64 KiB buffer costs kilobytes per cycle, tens of megabytes over 10,000 cycles, and
     * the exact checks (kernel counts, pinned pages, open files) catch those anyway.
     */
    private static final long RSS_GROWTH_LIMIT_KB = 32 * 1024;

    @DeviceTest
    void kernelCountsReturnToTheirStartAfterClose(TestDevice device) {
        assumeTrue(KernelResources.toolAvailable(), "iproute2's rdma tool is not installed");
        Map<String, Integer> before = KernelResources.count(device.name());
        try (Context context = ProtectionDomainDeviceTest.open(device); Arena arena = Arena.ofConfined()) {
            ProtectionDomain pd = context.allocateProtectionDomain();
            for (int i = 0; i < 3; i++) {
                pd.register(arena.allocate(4096, 4096), EnumSet.of(AccessFlag.LOCAL_WRITE));
            }
            Map<String, Integer> during = KernelResources.count(device.name());
            assertEquals(before.get("pd") + 1, during.get("pd"), "one more PD: " + during);
            assertEquals(before.get("mr") + 3, during.get("mr"), "three more MRs: " + during);
            if (before.containsKey("ctx")) {
                assertEquals(before.get("ctx") + 1, during.get("ctx"), "one more user context: " + during);
            }
            MemoryWindow mw = pd.allocateMemoryWindow(MemoryWindowType.TYPE_2);
            GidEntry gid = ProtectionDomainDeviceTest.sourceGid(context, device);
            AddressHandle ah = pd.createAddressHandle(AddressHandleAttributes.roce(gid, gid.gid()));
            pd.close(); // children first, then the PD
            assertTrue(mw.isClosed() && ah.isClosed());
            Map<String, Integer> afterPd = KernelResources.count(device.name());
            assertEquals(before.get("pd"), afterPd.get("pd"), "PD freed: " + afterPd);
            assertEquals(before.get("mr"), afterPd.get("mr"), "MRs freed with their PD: " + afterPd);
        }
        assertEquals(before, KernelResources.count(device.name()), "everything freed after the context closed");
    }

    @DeviceTest
    void openAllocateRegisterCloseCyclesLeaveNoTrace(TestDevice device) {
        Device rdma = Verbs.device(device.name()).orElseThrow();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buffer = arena.allocate(64 * 1024, 4096);
            runCycles(rdma, buffer, WARM_UP_CYCLES); // class loading, JIT, malloc arenas settle
            Footprint before = Footprint.now(device.name());
            long started = System.nanoTime();
            runCycles(rdma, buffer, CYCLES);
            long millis = (System.nanoTime() - started) / 1_000_000;
            Footprint after = Footprint.now(device.name());
            System.out.printf("%d open/alloc_pd/reg_mr/close cycles in %d ms; before %s; after %s%n",
                    CYCLES, millis, before, after);

            assertEquals(before.kernel(), after.kernel(), "kernel object counts");
            assertEquals(before.pinnedKb(), after.pinnedKb(), "pinned memory (VmPin) after every MR was deregistered");
            assertTrue(after.openFiles() - before.openFiles() <= 4,
                    "open files grew from " + before.openFiles() + " to " + after.openFiles());
            assertTrue(after.rssKb() - before.rssKb() < RSS_GROWTH_LIMIT_KB,
                    "resident set grew by " + (after.rssKb() - before.rssKb()) + " kB over " + CYCLES + " cycles");
        }
    }

    private static void runCycles(Device device, MemorySegment buffer, int cycles) {
        for (int i = 0; i < cycles; i++) {
            try (Context context = device.open()) {
                ProtectionDomain pd = context.allocateProtectionDomain();
                MemoryRegion mr = pd.register(buffer, EnumSet.of(AccessFlag.LOCAL_WRITE, AccessFlag.REMOTE_READ));
                if (mr.lkey() == 0 && mr.rkey() == 0) {
                    throw new AssertionError("cycle " + i + ": a registration without keys");
                }
            } // closing the context closes the PD and the MR
        }
    }

    /** The process's footprint, after a GC so that dead Java objects do not count. */
    private record Footprint(long rssKb, long pinnedKb, long openFiles, Map<String, Integer> kernel) {
        static Footprint now(String device) {
            System.gc();
            String status = read(Path.of("/proc/self/status"));
            Map<String, Integer> kernel = KernelResources.toolAvailable() ? KernelResources.count(device) : Map.of();
            return new Footprint(statusKb(status, "VmRSS"), statusKb(status, "VmPin"), countOpenFiles(), kernel);
        }

        private static long statusKb(String status, String field) {
            for (String line : status.split("\n")) {
                if (line.startsWith(field + ":")) {
                    return Long.parseLong(line.substring(field.length() + 1).replace("kB", "").strip());
                }
            }
            throw new IllegalStateException("/proc/self/status has no " + field);
        }

        private static long countOpenFiles() {
            try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
                return fds.count();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        private static String read(Path path) {
            try {
                return Files.readString(path);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
