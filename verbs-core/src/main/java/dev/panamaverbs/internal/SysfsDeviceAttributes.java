package dev.panamaverbs.internal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * A device's attributes that only sysfs has ({@code /sys/class/infiniband/<dev>/<attribute>},
 * the device's {@code ibdev_path}), read the way {@code ibv_read_sysfs_file} does: the text
 * without its trailing newline; empty when the file is missing, unreadable or empty.
 */
public final class SysfsDeviceAttributes {
    public static final Path ROOT = Path.of("/sys/class/infiniband");

    private SysfsDeviceAttributes() {}

    /** {@code board_id} of device {@code name} under {@code root}, or empty. */
    public static Optional<String> boardId(Path root, String name) {
        return read(root.resolve(name).resolve("board_id"));
    }

    private static Optional<String> read(Path file) {
        try {
            String text = Files.readString(file);
            int end = text.length();
            while (end > 0 && (text.charAt(end - 1) == '\n' || text.charAt(end - 1) == '\r')) {
                end--;
            }
            return end == 0 ? Optional.empty() : Optional.of(text.substring(0, end));
        } catch (IOException | SecurityException | java.io.UncheckedIOException unreadable) {
            return Optional.empty();
        }
    }
}
