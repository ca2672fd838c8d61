package dev.panamaverbs.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The size bounds checked before the library allocates: physical memory from /proc/meminfo. */
class SizeLimitsTest {
    @Test
    void physicalMemoryIsMemTotalInBytes(@TempDir Path dir) throws IOException {
        Path meminfo = Files.writeString(dir.resolve("meminfo"), "MemTotal:        8038244 kB\nMemFree:  1 kB\n");
        assertEquals(8038244L * 1024, SizeLimits.readPhysicalMemory(meminfo));
        assertEquals(Long.MAX_VALUE, SizeLimits.readPhysicalMemory(dir.resolve("missing")), "no file: no limit");
        Path garbled = Files.writeString(dir.resolve("garbled"), "MemTotal: lots\n");
        assertEquals(Long.MAX_VALUE, SizeLimits.readPhysicalMemory(garbled));
    }

    @Test
    void aRegionLargerThanPhysicalMemoryIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SizeLimits.checkPinnable("ibv_reg_mr", Long.MAX_VALUE, 1L << 30));
        assertTrue(e.getMessage().startsWith("ibv_reg_mr: length " + Long.MAX_VALUE + " exceeds this machine's physical"
                + " memory of " + (1L << 30) + " bytes"), e.getMessage());
        SizeLimits.checkPinnable("ibv_reg_mr", 1L << 30, 1L << 30);
        // The host's own limit (this test machine has a /proc/meminfo) refuses Long.MAX_VALUE.
        assertThrows(IllegalArgumentException.class, () -> SizeLimits.checkPinnable("ibv_reg_mr", Long.MAX_VALUE));
    }
}
