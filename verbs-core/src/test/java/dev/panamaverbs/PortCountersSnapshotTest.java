package dev.panamaverbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panamaverbs.values.PortCounters;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code Context.portCounters}' sysfs part over a fake {@code /sys/class/infiniband} tree. */
class PortCountersSnapshotTest {
    @TempDir
    Path sysfs;

    @Test
    void bothDirectoriesOfThePortAreRead() throws IOException {
        Path port = Files.createDirectories(sysfs.resolve("mlx5_0/ports/2"));
        Files.createDirectories(port.resolve("counters"));
        Files.createDirectories(port.resolve("hw_counters"));
        Files.writeString(port.resolve("counters/port_xmit_packets"), "99\n");
        Files.writeString(port.resolve("hw_counters/out_of_sequence"), "4\n");
        Files.createDirectories(sysfs.resolve("mlx5_0/ports/1/counters"));
        Files.writeString(sysfs.resolve("mlx5_0/ports/1/counters/port_xmit_packets"), "1\n"); // another port
        PortCounters taken = ContextQueries.readPortCounters(sysfs, "mlx5_0", 2, OptionalLong.of(123));
        assertEquals("mlx5_0", taken.device());
        assertEquals(2, taken.port());
        assertEquals(Map.of("port_xmit_packets", 99L), taken.counters());
        assertEquals(Map.of("out_of_sequence", 4L), taken.hardwareCounters());
        assertEquals(OptionalLong.of(123), taken.rawClockNanos());
    }

    @Test
    void aDeviceWithoutCountersGivesAnEmptySnapshot() {
        PortCounters taken = ContextQueries.readPortCounters(sysfs, "rxe0", 1, OptionalLong.empty());
        assertTrue(taken.counters().isEmpty());
        assertTrue(taken.hardwareCounters().isEmpty());
        assertTrue(taken.rawClockNanos().isEmpty());
    }
}
