package dev.panamaverbs.examples.pingpong;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** rc_pingpong's summary lines (its printf formats). */
class PingPongSummaryTest {
    @Test
    void bytesBothWaysAndMicrosecondsPerIteration() {
        // 4096 bytes * 1000 iters * 2 = 8192000 bytes in 0.5 s: 131.072 Mbit/s, 500 us/iter
        assertEquals(String.format("8192000 bytes in 0.50 seconds = 131.07 Mbit/sec%n1000 iters in 0.50 seconds = 500.00 usec/iter"),
                PingPongSummary.lines(4096, 1000, 500_000_000L));
    }
}
