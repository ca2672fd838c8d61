package dev.panamaverbs.perftest.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The unit of a latency report: microseconds, or with {@code -C} CPU cycles. perftest counts
 * cycles and divides by the CPU's MHz for microseconds; the twin times in nanoseconds
 * ({@code System.nanoTime}), so it multiplies by the same MHz ({@code /proc/cpuinfo}'s
 * "cpu MHz", as perftest's {@code get_cpu_mhz} reads it) for cycles.
 *
 * @param name         the name perftest prints above the {@code -H}/{@code -U} lists ("usec", "cycles")
 * @param nanosPerUnit nanoseconds per unit
 */
public record LatencyUnit(String name, double nanosPerUnit) {
    /** perftest's default: microseconds. */
    public static final LatencyUnit MICROSECONDS = new LatencyUnit("usec", 1000);

    private static final Pattern CPU_MHZ = Pattern.compile("(?m)^cpu MHz\\s*:\\s*([0-9.]+)");

    /** Cycles of a CPU of {@code cpuinfo}'s first "cpu MHz"; an {@link IllegalStateException} when it has none. */
    public static LatencyUnit cycles(String cpuinfo) {
        Matcher mhz = CPU_MHZ.matcher(cpuinfo);
        if (!mhz.find() || Double.parseDouble(mhz.group(1)) <= 0) {
            throw new IllegalStateException("-C: no \"cpu MHz\" in /proc/cpuinfo to count cycles by");
        }
        return new LatencyUnit("cycles", 1000 / Double.parseDouble(mhz.group(1)));
    }

    /** Cycles of this machine's CPU ({@link #cycles(String)} of {@code /proc/cpuinfo}). */
    public static LatencyUnit cyclesOfThisCpu() throws IOException {
        return cycles(Files.readString(Path.of("/proc/cpuinfo")));
    }
}
