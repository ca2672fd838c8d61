package dev.panamaverbs.examples.pingpong;

import java.util.Locale;

/**
 * rc_pingpong's two result lines: {@code N bytes in T seconds = X Mbit/sec} (bytes counted both
 * ways: size * iters * 2) and {@code N iters in T seconds = Y usec/iter}.
 */
final class PingPongSummary {
    private PingPongSummary() {}

    static String lines(int size, int iters, long nanos) {
        double usec = nanos / 1000.0;
        long bytes = (long) size * iters * 2;
        return String.format(Locale.ROOT, "%d bytes in %.2f seconds = %.2f Mbit/sec%n%d iters in %.2f seconds = %.2f usec/iter",
                bytes, usec / 1_000_000.0, bytes * 8.0 / usec, iters, usec / 1_000_000.0, usec / iters);
    }
}
