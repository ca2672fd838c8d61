package dev.panamaverbs.messaging.registration;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The process's memory lock limit ({@code RLIMIT_MEMLOCK}, soft value), read from
 * {@code /proc/self/limits} (line {@code Max locked memory}) rather than through
 * {@code getrlimit}: no native call of the messaging layer's own. The kernel checks this limit
 * when {@code ibv_reg_mr} pins pages, unless the process holds {@code CAP_IPC_LOCK}.
 */
final class RegistrationMemlock {
    /** The limit reads {@code unlimited}. */
    static final long UNLIMITED = Long.MAX_VALUE;
    /** The limit could not be read (no {@code /proc}, not Linux, or a line we do not understand). */
    static final long UNKNOWN = -1;

    private static final Path LIMITS = Path.of("/proc/self/limits");
    private static final String LINE = "Max locked memory";

    private RegistrationMemlock() {}

    /**
     * The soft memory lock limit in bytes from {@code /proc/self/limits} now.
     *
     * @return the limit in bytes, {@link #UNLIMITED} or {@link #UNKNOWN}
     */
    static long read() {
        try {
            return parse(Files.readString(LIMITS));
        } catch (IOException | SecurityException e) {
            return UNKNOWN;
        }
    }

    /**
     * The soft limit of the {@code Max locked memory} line of a {@code /proc/<pid>/limits} text:
     * columns limit name, soft limit, hard limit, units ({@code bytes}).
     *
     * @param limits the text of {@code /proc/self/limits}
     * @return the soft limit in bytes, {@link #UNLIMITED} or {@link #UNKNOWN}
     */
    static long parse(String limits) {
        for (String line : limits.split("\n")) {
            if (!line.startsWith(LINE)) {
                continue;
            }
            String[] columns = line.substring(LINE.length()).trim().split("\\s+");
            if (columns.length == 0 || columns[0].isEmpty()) {
                return UNKNOWN;
            }
            if (columns[0].equals("unlimited")) {
                return UNLIMITED;
            }
            try {
                long soft = Long.parseLong(columns[0]);
                return soft < 0 ? UNKNOWN : soft;
            } catch (NumberFormatException e) {
                return UNKNOWN;
            }
        }
        return UNKNOWN;
    }

    /**
     * The limit as words for messages.
     *
     * @param limit a limit in bytes, {@link #UNLIMITED} or {@link #UNKNOWN}
     * @return e.g. {@code 8388608 bytes}, {@code unlimited} or {@code unknown}
     */
    static String describe(long limit) {
        if (limit == UNLIMITED) {
            return "unlimited";
        }
        return limit == UNKNOWN ? "unknown (no /proc/self/limits)" : limit + " bytes";
    }
}
