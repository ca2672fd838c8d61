package dev.panamaverbs.it.device;

import static dev.panamaverbs.it.device.DeadlineRuleDeviceTest.HUGE;
import static dev.panamaverbs.it.device.DeadlineRuleDeviceTest.assertFollowsTheRule;
import static dev.panamaverbs.it.device.DeadlineRuleDeviceTest.assertRefusesNullAndNegative;
import static dev.panamaverbs.it.device.DeadlineRuleDeviceTest.outcome;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panamaverbs.onesided.OneSidedChannel;
import dev.panamaverbs.onesided.RemoteWindow;
import dev.panamaverbs.onesided.SignalSlot;
import dev.panamaverbs.onesided.WaitTimeoutException;
import dev.panamaverbs.onesided.Window;
import dev.panamaverbs.onesided.WindowDescriptor;
import dev.panamaverbs.testkit.DeviceTest;
import dev.panamaverbs.testkit.RcLoopbackPair;
import dev.panamaverbs.testkit.TestDevice;
import java.time.Duration;
import java.util.function.Predicate;

/** The deadline rule (docs/safety.md, "Deadlines") on the one-sided waits and post timeout. */
class OneSidedDeadlineDeviceTest {
    @DeviceTest
    void oneSidedWaits(TestDevice device) throws Exception {
        try (OneSidedSides s = OneSidedSides.open(device)) {
            OneSidedChannel sender = s.sender();
            SignalSlot never = s.target().slot(24);
            SignalSlot counter = s.source().slot(32);
            Predicate<Object> timedOut = WaitTimeoutException.class::isInstance;
            assertFollowsTheRule("OneSidedChannel.waitSignal", timeout -> s.receiver().waitSignal(never, 1, timeout), timedOut);
            assertFollowsTheRule("OneSidedChannel.waitCounter", timeout -> sender.waitCounter(counter, 1, timeout), timedOut);
            long future = sender.signal(s.remote().slot(40), 1, false) + 1_000_000; // a ticket that is never posted
            assertFollowsTheRule("OneSidedChannel.waitLocal", timeout -> {
                sender.waitLocal(future, timeout);
                return null;
            }, timedOut);
            assertRefusesNullAndNegative("OneSidedChannel.resetCounter", timeout -> {
                sender.resetCounter(counter, timeout);
                return null;
            });
            sender.resetCounter(counter, HUGE);
            assertEquals(0, counter.read());
            Object zero = outcome(timeout -> {
                sender.resetCounter(counter, timeout);
                return "done";
            }, Duration.ZERO);
            assertTrue("done".equals(zero) || zero instanceof WaitTimeoutException, "resetCounter with zero: " + zero);
            assertRefusesNullAndNegative("OneSidedChannel.open", timeout -> OneSidedChannel.open(s.pair().first(), timeout));
        }
    }

    @DeviceTest
    void oneSidedPostTimeoutsZeroAndHuge(TestDevice device) throws Exception {
        for (Duration postTimeout : new Duration[] {Duration.ZERO, HUGE}) {
            try (RcLoopbackPair pair = RcLoopbackPair.open(device);
                 OneSidedChannel channel = OneSidedChannel.open(pair.first(), postTimeout)) {
                Window target = Window.of(pair.secondBuffer().region());
                RemoteWindow remote = RemoteWindow.open(WindowDescriptor.fromBytes(target.descriptor().toBytes()));
                // A post that finds room needs no wait, even with a zero post timeout.
                long before = target.slot(48).read();
                channel.waitLocal(channel.signal(remote.slot(48), 1, false), Duration.ofSeconds(30));
                assertEquals(before + 1, target.slot(48).read(), "post timeout " + postTimeout);
            }
        }
    }

}
