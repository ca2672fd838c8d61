package dev.panamaverbs.internal;

import dev.panamaverbs.Device;
import dev.panamaverbs.values.NodeType;
import dev.panamaverbs.values.TransportType;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SysfsDeviceAttributesTest {
    @TempDir
    Path sysfs;

    @Test
    void boardIdIsTheFileWithoutItsNewline() throws IOException {
        Files.createDirectories(sysfs.resolve("mlx5_0"));
        Files.writeString(sysfs.resolve("mlx5_0/board_id"), "MT_0000000010\n");
        assertEquals(Optional.of("MT_0000000010"), SysfsDeviceAttributes.boardId(sysfs, "mlx5_0"));
    }

    @Test
    void missingOrEmptyBoardIdIsEmpty() throws IOException {
        Files.createDirectories(sysfs.resolve("rxe0"));
        assertTrue(SysfsDeviceAttributes.boardId(sysfs, "rxe0").isEmpty());
        Files.writeString(sysfs.resolve("rxe0/board_id"), "\n");
        assertTrue(SysfsDeviceAttributes.boardId(sysfs, "rxe0").isEmpty());
    }

    @Test
    void deviceBoardIdMakesNoNativeCall() {
        Device device = new Device("no-such-device-42", 0, NodeType.CA, TransportType.IB);
        assertTrue(device.boardId().isEmpty());
    }

    @Test
    void portCountersAreTheNumericFilesByName() throws IOException {
        Path hw = Files.createDirectories(sysfs.resolve("rxe0/ports/1/hw_counters"));
        Files.writeString(hw.resolve("sent_pkts"), "1234\n");
        Files.writeString(hw.resolve("rcvd_rnr_err"), "0\n");
        Files.writeString(hw.resolve("lifespan"), "12\n"); // a number, but a setting (rxe's text), not a counter
        Files.writeString(hw.resolve("state"), "active\n"); // no number
        Files.writeString(hw.resolve("huge"), "18446744073709551615\n"); // 2^64 - 1
        Files.createDirectories(hw.resolve("subdir"));
        assertEquals(Map.of("sent_pkts", 1234L, "rcvd_rnr_err", 0L, "huge", -1L),
                SysfsDeviceAttributes.portCounters(sysfs, "rxe0", 1, "hw_counters"));
    }

    @Test
    void missingCounterDirectoriesAreEmpty() {
        assertTrue(SysfsDeviceAttributes.portCounters(sysfs, "rxe0", 1, "counters").isEmpty());
        assertTrue(SysfsDeviceAttributes.portCounters(sysfs, "no-such-device-42", 2, "hw_counters").isEmpty());
    }
}
