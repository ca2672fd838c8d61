package dev.panamaverbs.values;

import java.time.Instant;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * A snapshot of one port's counters, as the kernel keeps them: the files of
 * {@code /sys/class/infiniband/<device>/ports/<port>/counters/} (the InfiniBand port counters of
 * the performance management agent; RoCE devices such as rxe may have none) and of
 * {@code .../hw_counters/} (the driver's own: on rxe {@code sent_pkts}, {@code rcvd_pkts},
 * {@code rcvd_rnr_err}, {@code send_rnr_err}, {@code rcvd_seq_err}, {@code retry_exceeded_err},
 * {@code retry_rnr_exceeded_err} and more), plus the device's raw clock from
 * {@code ibv_query_rt_values_ex} where the provider offers it. Taken by
 * {@code Context.portCounters(port)}; compare two with {@link #changesSince}.
 *
 * <p>Values are what the files hold, unsigned 64-bit (read them with
 * {@link Long#toUnsignedString(long)} past 2^63); per the InfiniBand specification
 * {@code port_xmit_data} and {@code port_rcv_data} count 32-bit words, not bytes. A file that
 * does not hold a number (an unreadable counter) is left out, and so is hw_counters'
 * {@code lifespan}, a setting. Each map is sorted by name and unmodifiable.
 *
 * @param device           the device name, e.g. {@code rxe0}
 * @param port             the port number, from 1
 * @param takenAt          when the files were read
 * @param counters         {@code ports/<port>/counters/*}: name to value; empty when the device has none
 * @param hardwareCounters {@code ports/<port>/hw_counters/*}: name to value; empty when the driver has none
 * @param rawClockNanos    {@code ibv_query_rt_values_ex}'s raw clock in nanoseconds when the
 *                         snapshot was taken; empty when the provider does not offer the verb (rxe)
 */
public record PortCounters(String device, int port, Instant takenAt, Map<String, Long> counters,
                           Map<String, Long> hardwareCounters, OptionalLong rawClockNanos) {
    /**
     * Copies both maps, sorted and unmodifiable.
     *
     * @throws NullPointerException when any argument is null
     * @throws IllegalArgumentException when {@code port} is below 1
     */
    public PortCounters {
        Objects.requireNonNull(device, "device");
        Objects.requireNonNull(takenAt, "takenAt");
        Objects.requireNonNull(rawClockNanos, "rawClockNanos");
        if (port < 1) {
            throw new IllegalArgumentException("port must be 1 or more, got " + port);
        }
        counters = Collections.unmodifiableMap(new TreeMap<>(Objects.requireNonNull(counters, "counters")));
        hardwareCounters = Collections.unmodifiableMap(new TreeMap<>(Objects.requireNonNull(hardwareCounters, "hardwareCounters")));
    }

    /**
     * The counter {@code name}, looked up in {@link #hardwareCounters()} first, then in {@link #counters()}.
     *
     * @param name a counter file's name, e.g. {@code sent_pkts} or {@code port_xmit_packets}
     * @return its value, or empty when this port has no such counter
     */
    public OptionalLong get(String name) {
        Long value = hardwareCounters.get(name);
        if (value == null) {
            value = counters.get(name);
        }
        return value == null ? OptionalLong.empty() : OptionalLong.of(value);
    }

    /**
     * The counters that moved since {@code earlier}, each with how much (this value minus the
     * earlier one, unsigned arithmetic, so a counter that wrapped still reads as its increase).
     * Counters of both directories, by name (hardware counters win a name both have); a counter
     * {@code earlier} lacks counts from 0.
     *
     * @param earlier a snapshot of the same port, taken before
     * @return name to increase, sorted by name; only counters whose value changed
     * @throws IllegalArgumentException when {@code earlier} is of another device or port
     */
    public Map<String, Long> changesSince(PortCounters earlier) {
        Objects.requireNonNull(earlier, "earlier");
        if (!earlier.device.equals(device) || earlier.port != port) {
            throw new IllegalArgumentException("changesSince: " + earlier.device + " port " + earlier.port
                    + " is not " + device + " port " + port);
        }
        TreeMap<String, Long> changes = new TreeMap<>();
        addChanges(changes, counters, earlier.counters);
        addChanges(changes, hardwareCounters, earlier.hardwareCounters);
        return Collections.unmodifiableMap(changes);
    }

    private static void addChanges(Map<String, Long> changes, Map<String, Long> now, Map<String, Long> before) {
        now.forEach((name, value) -> {
            long delta = value - before.getOrDefault(name, 0L);
            if (delta != 0) {
                changes.put(name, delta);
            }
        });
    }
}
