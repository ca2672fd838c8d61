package dev.panamaverbs.internal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * A device's attributes that only sysfs has ({@code /sys/class/infiniband/<dev>/<attribute>},
 * the device's {@code ibdev_path}), read the way {@code ibv_read_sysfs_file} does: the text
 * without its trailing newline; empty when the file is missing, unreadable or empty. Also the
 * port counter directories ({@code ports/<port>/counters} and {@code hw_counters}).
 */
public final class SysfsDeviceAttributes {
    public static final Path ROOT = Path.of("/sys/class/infiniband");
    /** hw_counters' cache time setting, the one file there that is not a counter. */
    private static final String LIFESPAN = "lifespan";

    private SysfsDeviceAttributes() {}

    /** {@code board_id} of device {@code name} under {@code root}, or empty. */
    public static Optional<String> boardId(Path root, String name) {
        return read(root.resolve(name).resolve("board_id"));
    }

    /**
     * The counters in {@code <root>/<name>/ports/<port>/<directory>/}: each regular file whose
     * text is an unsigned decimal number, by file name. Files that are unreadable (the kernel
     * answers EINVAL for a counter the device cannot read) or hold no number are left out, and so
     * is hw_counters' {@code lifespan}: a setting (how many milliseconds the kernel caches the
     * values; 12 on rxe), not a counter. A missing directory gives an empty map.
     *
     * @param root the sysfs class directory, {@link #ROOT} outside tests
     * @param name the device name
     * @param port the port number
     * @param directory {@code counters} or {@code hw_counters}
     * @return counter name to value (unsigned 64-bit), sorted by name
     */
    public static Map<String, Long> portCounters(Path root, String name, int port, String directory) {
        Path dir = root.resolve(name).resolve("ports").resolve(Integer.toString(port)).resolve(directory);
        Map<String, Long> values = new TreeMap<>();
        List<Path> files;
        try (Stream<Path> listing = Files.list(dir)) {
            files = listing.filter(Files::isRegularFile).toList();
        } catch (IOException | SecurityException | java.io.UncheckedIOException unreadable) {
            return values;
        }
        for (Path file : files) {
            if (file.getFileName().toString().equals(LIFESPAN)) {
                continue;
            }
            read(file).ifPresent(text -> {
                try {
                    values.put(file.getFileName().toString(), Long.parseUnsignedLong(text.strip()));
                } catch (NumberFormatException notACounter) {
                    // a setting or a text attribute, not a counter
                }
            });
        }
        return values;
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
