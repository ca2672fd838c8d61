package dev.panamaverbs.benchmarks.messaging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** The two-host bench's pure parts: host B's report line, and joining the two ends of a phase. */
class PeerReportTest {
    @Test
    void aReportSurvivesItsLine() {
        PeerReport report = new PeerReport(new Exchange.End(1234, 5_000_000_000L, 10_000_000_123L, 0, 0), -1);
        assertEquals("1234 5000000000 10000000123 0 -1", report.format());
        assertEquals(report, PeerReport.parse(report.format() + "\n"));
        assertEquals("phase-7", PeerReport.key(7));
    }

    @Test
    void aMalformedLineIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> PeerReport.parse("1 2 3 4"));
        assertThrows(IllegalArgumentException.class, () -> PeerReport.parse("1 2 3 4 x"));
    }

    @Test
    void roundTripsAreTimedByTheClientAndOneWayByTheReceiver() {
        long[] latencies = {5, 6, 7};
        Exchange.End client = new Exchange.End(3, 100, 400, 3, 64);
        Exchange.End echo = new Exchange.End(3, 7_000, 7_350, 0, 32); // another clock
        Exchange.Measured rt = Exchange.acrossHosts(true, client, echo, latencies);
        assertEquals(new Exchange.Measured(3, 300, latencies, 3, 64, 32), rt);

        Exchange.End sender = new Exchange.End(11, 100, 200, 0, 0);
        Exchange.End receiver = new Exchange.End(11, 9_000, 10_000, 0, 8);
        Exchange.Measured oneWay = Exchange.acrossHosts(false, sender, receiver, latencies);
        assertEquals(10, oneWay.messages(), "the intervals after the first arrival");
        assertEquals(1_000, oneWay.nanos());
        assertEquals(0, oneWay.latencyCount());
        assertEquals(8, oneWay.allocatedB());
    }

    @Test
    void endsThatCountedDifferentlyFailThePhase() {
        assertThrows(IllegalStateException.class, () -> Exchange.acrossHosts(false, new Exchange.End(5, 0, 1, 0, 0),
                new Exchange.End(4, 0, 1, 0, 0), new long[0]));
    }
}
