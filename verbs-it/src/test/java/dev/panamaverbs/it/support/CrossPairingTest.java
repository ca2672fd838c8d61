package dev.panamaverbs.it.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.platform.testkit.engine.EngineTestKit;

/**
 * {@link CrossPairing} under the parallel configuration the device launcher runs with
 * ({@code scripts/device-run.sh}): a class's two cross pairings run at the same time, the
 * pairing that locks {@link CrossPairing#PAIRINGS} runs beside neither, and all three stay
 * three test cases; without parallelism they run one after the other as before.
 */
class CrossPairingTest {
    /** Each cross pairing waits this long for the other to start beside it. */
    private static final long MEET_SECONDS = 20;

    @Test
    void theTwoCrossPairingsRunTogetherAndTheThirdAlone() {
        Pairings.reset();
        EngineTestKit.engine("junit-jupiter").selectors(selectClass(Pairings.class))
                .configurationParameter("junit.jupiter.execution.parallel.enabled", "true")
                .configurationParameter("junit.jupiter.execution.parallel.mode.default", "same_thread")
                .configurationParameter("junit.jupiter.execution.parallel.mode.classes.default", "same_thread")
                .configurationParameter("junit.jupiter.execution.parallel.config.strategy", "fixed")
                .configurationParameter("junit.jupiter.execution.parallel.config.fixed.parallelism", "2")
                .execute().testEvents().assertStatistics(stats -> stats.started(3).succeeded(3));
        assertEquals(2, Pairings.together.get(), "cross pairings running at once, at most");
        assertEquals(0, Pairings.overlaps.get(), "times the exclusive pairing ran beside a cross pairing");
    }

    @Test
    void withoutParallelismTheyRunOneAfterTheOther() {
        Pairings.reset();
        Pairings.meetSeconds = 0; // the other cannot start meanwhile: don't wait for it
        EngineTestKit.engine("junit-jupiter").selectors(selectClass(Pairings.class)).execute().testEvents()
                .assertStatistics(stats -> stats.started(3).succeeded(3));
        assertEquals(1, Pairings.together.get(), "cross pairings running at once, at most");
        assertEquals(0, Pairings.overlaps.get(), "times the exclusive pairing ran beside a cross pairing");
    }

    /** Three pairings that record what ran beside what. */
    @Tag(TwoHostSupportTest.FIXTURE_TAG)
    static class Pairings {
        static volatile CountDownLatch bothStarted;
        static volatile long meetSeconds;
        static final AtomicInteger crossRunning = new AtomicInteger();
        static final AtomicInteger aloneRunning = new AtomicInteger();
        static final AtomicInteger together = new AtomicInteger();
        static final AtomicInteger overlaps = new AtomicInteger();

        static void reset() {
            bothStarted = new CountDownLatch(2);
            meetSeconds = MEET_SECONDS;
            together.set(0);
            overlaps.set(0);
        }

        @Test
        @CrossPairing
        void javaServerWithCClient() throws InterruptedException {
            cross();
        }

        @Test
        @CrossPairing
        void cServerWithJavaClient() throws InterruptedException {
            cross();
        }

        @Test
        @ResourceLock(CrossPairing.PAIRINGS)
        void javaServerWithJavaClient() {
            aloneRunning.incrementAndGet();
            try {
                overlaps.addAndGet(crossRunning.get());
            } finally {
                aloneRunning.decrementAndGet();
            }
        }

        private static void cross() throws InterruptedException {
            int running = crossRunning.incrementAndGet();
            try {
                together.accumulateAndGet(running, Math::max);
                overlaps.addAndGet(aloneRunning.get());
                bothStarted.countDown();
                bothStarted.await(meetSeconds, TimeUnit.SECONDS); // bounded: the test fails on "together" when alone
                together.accumulateAndGet(crossRunning.get(), Math::max);
                overlaps.addAndGet(aloneRunning.get());
            } finally {
                crossRunning.decrementAndGet();
            }
        }
    }
}
