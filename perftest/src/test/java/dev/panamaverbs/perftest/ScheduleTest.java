package dev.panamaverbs.perftest;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The per-size hand shakes of {@code -a}, as perftest 4.5's mains make them (docs/perftest-protocol.md). */
class ScheduleTest {
    @Test
    void onlySendBwShakesHandsAfterEachSizeAndOnlyWithAllSizes() {
        assertTrue(Schedule.handShakeAfterEachSize(TestKind.SEND_BW, true));
        assertFalse(Schedule.handShakeAfterEachSize(TestKind.SEND_BW, false));
        for (TestKind test : TestKind.values()) {
            if (test != TestKind.SEND_BW) {
                assertFalse(Schedule.handShakeAfterEachSize(test, true), test.name());
            }
        }
    }

    @Test
    void sendTestsShakeHandsAfterRtrBetweenTheKeyLoops() {
        for (TestKind test : TestKind.values()) {
            assertTrue(Schedule.handShakeAfterRtrBetweenKeyLoops(test) == (test.verb() == TestKind.Verb.SEND), test.name());
        }
    }

    @Test
    void udClientSendsItsQpnOverRdmaCmOnlyWhereTheServerSends() {
        assertTrue(Schedule.clientSendsQpnDatagram(PerftestOptions.parse("send_lat", "-c", "UD", "-R")));
        assertTrue(Schedule.clientSendsQpnDatagram(PerftestOptions.parse("send_bw", "-c", "UD", "-R", "-b")));
        assertFalse(Schedule.clientSendsQpnDatagram(PerftestOptions.parse("send_bw", "-c", "UD", "-R")),
                "a send_bw server never sends");
        assertFalse(Schedule.clientSendsQpnDatagram(PerftestOptions.parse("send_lat", "-c", "UD")), "not over TCP");
        assertFalse(Schedule.clientSendsQpnDatagram(PerftestOptions.parse("send_lat", "-R")), "not on RC");
    }
}
