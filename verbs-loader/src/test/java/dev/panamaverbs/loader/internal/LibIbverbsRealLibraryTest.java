package dev.panamaverbs.loader.internal;

import dev.panamaverbs.ffm.invoke.CallState;
import dev.panamaverbs.ffm.invoke.verbs_h;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The process-wide library with no override: the host's real libibverbs. Runs in its own JVM
 * (Surefire forks per test class) so no other test has fixed the global result first.
 */
class LibIbverbsRealLibraryTest {

    @BeforeAll
    static void hostHasLibibverbs() {
        RealLibraries.assumeInstalledWithoutOverride(LibraryProbe.LIBRARY_PROPERTY, LibraryProbe.LIBRARY_ENVIRONMENT, "libibverbs.so.1");
    }

    @Test
    void theRealLibraryIsAvailable() {
        // The file the soname led to, links resolved: .../libibverbs.so.1.14.44.0 on rdma-core 44.
        String loaded = RealLibraries.assertLoaded(LibIbverbs.LIBRARY, LibraryProbe.DEFAULT_LIBRARY,
                "libibverbs\\.so\\.1(\\.\\d+)*");
        assertTrue(Path.of(loaded).isAbsolute(), loaded);
        assertEquals(loaded, realPath(Path.of(loaded)), "no symbolic link left in " + loaded);
        // rdma-core 44 exports everything up to IBVERBS_1.14.
        assertTrue(LibIbverbs.LIBRARY.has("ibv_reg_mr_iova2"));
        assertTrue(LibIbverbs.LIBRARY.has("ibv_reg_dmabuf_mr"));
        assertTrue(LibIbverbs.LIBRARY.has("ibv_query_qp_data_in_order"));
    }

    /**
     * ibv_get_device_list sees the RDMA devices the kernel shows in /sys/class/infiniband: none
     * when the directory is absent or empty (a host without RDMA), else the same number.
     */
    @Test
    void theDeviceListMatchesSysClassInfiniband() throws Throwable {
        int expected = sysfsDevices();
        assertTrue(LibIbverbs.LIBRARY.isAvailable());
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = CallState.allocate(arena);
            MemorySegment count = arena.allocate(JAVA_INT);
            count.set(JAVA_INT, 0, -1);
            MemorySegment list = verbs_h.ibv_get_device_list(state, count);
            if (!list.equals(MemorySegment.NULL)) {
                verbs_h.ibv_free_device_list(state, list);
                assertEquals(expected, count.get(JAVA_INT, 0), "devices in " + SYS_CLASS_INFINIBAND);
            } else {
                // libibverbs answers NULL (errno set) when the kernel has no verbs support at all.
                assertEquals(0, expected, "NULL device list while " + SYS_CLASS_INFINIBAND + " lists devices");
                assertTrue(CallState.errno(state) != 0, "NULL without errno");
            }
        }
    }

    private static final Path SYS_CLASS_INFINIBAND = Path.of("/sys/class/infiniband");

    /** The entries of /sys/class/infiniband; 0 when it does not exist. */
    private static int sysfsDevices() throws IOException {
        if (!Files.isDirectory(SYS_CLASS_INFINIBAND)) {
            return 0;
        }
        try (Stream<Path> entries = Files.list(SYS_CLASS_INFINIBAND)) {
            return (int) entries.count();
        }
    }

    private static String realPath(Path path) {
        try {
            return path.toRealPath().toString();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void optionalFunctionsOfTheRealLibraryBind() {
        assertTrue(LibIbverbs.LIBRARY.isAvailable());
        assertTrue(verbs_h.LIBRARY.has("ibv_reg_mr_iova2"));
    }
}
