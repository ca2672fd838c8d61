package dev.panamaverbs.internal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Upper bounds for the sizes the library allocates itself, checked before allocating: an absurd
 * size is an {@link IllegalArgumentException} naming the verb, not an {@link OutOfMemoryError}.
 */
public final class SizeLimits {
    /**
     * The most entries a {@link dev.panamaverbs.Completions} batch may have: 2^22 (192 MiB of {@code ibv_wc}),
     * as many as the largest completion queue a device reports ({@code max_cqe}, mlx5: 2^22 - 1),
     * so one poll can always drain it.
     */
    public static final int MAX_COMPLETIONS = 1 << 22;
    /** The most scatter/gather entries a work request may have room for: far above any device's {@code max_sge} (tens). */
    public static final int MAX_SGE = 1 << 16;

    /** {@code MemTotal} of {@code /proc/meminfo} in bytes, read once; {@link Long#MAX_VALUE} if unreadable. */
    private static final long PHYSICAL_MEMORY = readPhysicalMemory(Path.of("/proc/meminfo"));

    private SizeLimits() {}

    /** @throws IllegalArgumentException naming {@code verb} unless {@code 1 <= capacity <= MAX_COMPLETIONS} */
    public static void checkCompletions(String verb, int capacity) {
        if (capacity < 1 || capacity > MAX_COMPLETIONS) {
            throw new IllegalArgumentException(verb + ": a completion batch needs 1.." + MAX_COMPLETIONS
                    + " entries, got " + capacity);
        }
    }

    /** @throws IllegalArgumentException naming {@code verb} unless {@code 0 <= maxSge <= MAX_SGE} */
    public static void checkMaxSge(String verb, int maxSge) {
        if (maxSge < 0 || maxSge > MAX_SGE) {
            throw new IllegalArgumentException(verb + ": maxSge must be in 0.." + MAX_SGE + ", got " + maxSge);
        }
    }

    /**
     * Memory a region allocates is pinned by the registration, so it can never be larger than the
     * machine's physical memory.
     *
     * @throws IllegalArgumentException naming {@code verb} when {@code byteSize} exceeds it
     */
    public static void checkPinnable(String verb, long byteSize) {
        checkPinnable(verb, byteSize, PHYSICAL_MEMORY);
    }

    public static void checkPinnable(String verb, long byteSize, long physicalMemory) {
        if (byteSize > physicalMemory) {
            throw new IllegalArgumentException(verb + ": length " + byteSize + " exceeds this machine's physical memory of "
                    + physicalMemory + " bytes (/proc/meminfo MemTotal): registered memory is pinned");
        }
    }

    /** {@code MemTotal} (in kB in the file) in bytes, or {@link Long#MAX_VALUE} when the file or line is missing. */
    public static long readPhysicalMemory(Path meminfo) {
        try {
            for (String line : Files.readAllLines(meminfo)) {
                if (line.startsWith("MemTotal:")) {
                    String[] parts = line.substring("MemTotal:".length()).trim().split("\\s+");
                    return Math.multiplyExact(Long.parseLong(parts[0]), 1024L);
                }
            }
        } catch (IOException | RuntimeException unreadable) {
            // no limit known: the allocation itself decides
        }
        return Long.MAX_VALUE;
    }
}
