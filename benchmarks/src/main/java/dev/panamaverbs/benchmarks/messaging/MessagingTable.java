package dev.panamaverbs.benchmarks.messaging;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The results of issue 24's messaging benchmark as both runs print them (one host,
 * {@link MessagingCompare}; two hosts, the two-host bench): one row per case and mode, a line per
 * row as it is measured, then a markdown table and, per messaging row, the ratios of its time per
 * message to the plain verbs loop's (target at most {@value #TARGET}x) and to TCP's.
 */
final class MessagingTable {
    /** Issue 24's target: messaging at most 10% over the plain verbs loop. */
    static final double TARGET = 1.10;

    private final List<Row> rows = new ArrayList<>();

    /**
     * One mode of one case, computed when measured (the latency array is reused).
     *
     * @param perMessageNanos measured time over messages (round trips: per round trip)
     * @param endA            bytes end A's thread (client, sender) allocated per message
     * @param endB            bytes end B's thread (server, receiver) allocated per message
     * @param pollerA         the poller thread's bytes per message on end A's host (one host: the only poller); NaN when not measured
     * @param pollerB         the poller thread's bytes per message on end B's host; NaN when not measured
     */
    record Row(MessagingCase of, long messages, double seconds, double perMessageNanos, double meanMicros,
               double p50Micros, double p99Micros, double endA, double endB, double pollerA, double pollerB, String note) {
        String mode() {
            return of.mode().label;
        }
    }

    /** {@return the rows so far} */
    List<Row> rows() {
        return List.copyOf(rows);
    }

    /**
     * Adds the row of {@code measured} and prints its line; {@code pollerA} and {@code pollerB}
     * are the pollers' bytes over the phase, negative when not measured.
     */
    Row add(MessagingCase of, Exchange.Measured m, long pollerA, long pollerB, String note, PrintStream out) {
        double mean = Double.NaN;
        double p50 = Double.NaN;
        double p99 = Double.NaN;
        if (m.latencyCount() > 0) {
            long[] sorted = Arrays.copyOf(m.latencies(), m.latencyCount());
            Arrays.sort(sorted);
            mean = Arrays.stream(sorted).average().orElse(Double.NaN) / 1e3;
            p50 = percentile(sorted, 0.50) / 1e3;
            p99 = percentile(sorted, 0.99) / 1e3;
        }
        Row row = new Row(of, m.messages(), m.nanos() / 1e9, (double) m.nanos() / m.messages(), mean, p50, p99,
                (double) m.allocatedA() / m.messages(), (double) m.allocatedB() / m.messages(), perMessage(pollerA, m),
                perMessage(pollerB, m), note);
        rows.add(row);
        out.printf("  %s %s %s: %d in %.2f s, %.1f/s; ends %d + %d B%s%s (%s)%n", of.label(), row.mode(),
                of.roundTrips() ? "round trips" : "messages", m.messages(), row.seconds(), 1e9 / row.perMessageNanos(),
                m.allocatedA(), m.allocatedB(), pollerA < 0 ? "" : ", poller A " + pollerA + " B",
                pollerB < 0 ? "" : ", poller B " + pollerB + " B", note);
        return row;
    }

    private static double perMessage(long bytes, Exchange.Measured m) {
        return bytes < 0 ? Double.NaN : (double) bytes / m.messages();
    }

    static long percentile(long[] sorted, double q) {
        int index = (int) Math.ceil(q * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
    }

    /** Prints the table (markdown), then per messaging row the ratios to the plain verbs loop and to TCP. */
    void print(PrintStream out) {
        out.println();
        out.println("| case | mode | messages | s | per s | MB/s | mean us | p50 us | p99 us | B/msg end A | B/msg end B"
                + " | B/msg poller A | B/msg poller B |");
        out.println("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
        for (Row r : rows) {
            boolean rt = r.of().roundTrips();
            out.printf("| %s | %s | %d | %.2f | %.1f | %s | %s | %s | %s | %.1f | %.1f | %s | %s |%n", r.of().label(), r.mode(),
                    r.messages(), r.seconds(), 1e9 / r.perMessageNanos(),
                    rt ? "-" : String.format("%.2f", r.of().size() / r.perMessageNanos() * 1e3),
                    rt ? String.format("%.1f", r.meanMicros()) : "-", rt ? String.format("%.1f", r.p50Micros()) : "-",
                    rt ? String.format("%.1f", r.p99Micros()) : "-", r.endA(), r.endB(), orDash(r.pollerA()), orDash(r.pollerB()));
        }
        out.println();
        for (String line : ratios()) {
            out.println(line);
        }
    }

    /** {@return per messaging row: its time per message over the verbs loop's (and the verdict) and over TCP's} */
    List<String> ratios() {
        List<String> lines = new ArrayList<>();
        for (Row messaging : rows) {
            MessagingCase.Mode mode = messaging.of().mode();
            if (mode == MessagingCase.Mode.VERBS || mode == MessagingCase.Mode.TCP) {
                continue;
            }
            Row verbs = rowOf(messaging, MessagingCase.Mode.VERBS);
            Row tcp = rowOf(messaging, MessagingCase.Mode.TCP);
            double overVerbs = messaging.perMessageNanos() / verbs.perMessageNanos();
            double overTcp = messaging.perMessageNanos() / tcp.perMessageNanos();
            String p50 = messaging.of().roundTrips()
                    ? String.format("; p50 messaging/verbs %.2fx, messaging/tcp %.2fx", messaging.p50Micros() / verbs.p50Micros(),
                            messaging.p50Micros() / tcp.p50Micros())
                    : "";
            lines.add(String.format("%s (%s): time per message messaging/verbs %.2fx (target at most %.2fx: %s), messaging/tcp %.2fx%s",
                    messaging.of().label(), messaging.mode(), overVerbs, TARGET, overVerbs <= TARGET ? "met" : "missed", overTcp, p50));
        }
        return lines;
    }

    private static String orDash(double value) {
        return Double.isNaN(value) ? "-" : String.format("%.1f", value);
    }

    /** {@return the row of {@code mode} in {@code row}'s case} */
    private Row rowOf(Row row, MessagingCase.Mode mode) {
        return rows.stream().filter(r -> r.of().size() == row.of().size() && r.of().mode() == mode).findFirst().orElseThrow();
    }
}
