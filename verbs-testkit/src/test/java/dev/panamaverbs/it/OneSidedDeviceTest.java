package dev.panamaverbs.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panamaverbs.Capability;
import dev.panamaverbs.CompletionStatus;
import dev.panamaverbs.ProtectionDomain;
import dev.panamaverbs.onesided.ChannelFailedException;
import dev.panamaverbs.onesided.OneSidedChannel;
import dev.panamaverbs.onesided.RemoteSlot;
import dev.panamaverbs.onesided.RemoteWindow;
import dev.panamaverbs.onesided.SignalSlot;
import dev.panamaverbs.onesided.WaitTimeoutException;
import dev.panamaverbs.onesided.Window;
import dev.panamaverbs.onesided.WindowDescriptor;
import dev.panamaverbs.testkit.DeviceTest;
import dev.panamaverbs.testkit.RcLoopbackPair;
import dev.panamaverbs.testkit.RegisteredBuffer;
import dev.panamaverbs.testkit.TestDevice;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One-sided windows on one device (issue 12): a sender channel on one queue pair of an RC
 * loop-back pair, a receiver channel on the other, each side's 64 KiB buffer as its window. The
 * receiver's window: signal slots at 0..63, data from 4096. The sender's: counters at 0..63,
 * source data from 4096. The peer window is opened from the descriptor's bytes, as a real peer would.
 */
class OneSidedDeviceTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(20);
    private static final int DATA = 4096;

    private static RemoteWindow remoteOf(Window window) {
        return RemoteWindow.open(WindowDescriptor.fromBytes(window.descriptor().toBytes()));
    }

    @DeviceTest
    void putWithSignalAndCounterLandsDataBeforeSignalAndCountsFinishedOperations(TestDevice device) throws Exception {
        try (RcLoopbackPair pair = RcLoopbackPair.open(device);
             OneSidedChannel sender = OneSidedChannel.open(pair.first());
             OneSidedChannel receiver = OneSidedChannel.open(pair.second())) {
            assertEquals(Capability.REG_MR_IOVA2.isPresent(), sender.sinkIsZeroBased(),
                    "the atomic sink is zero-based (ibv_reg_mr_iova2, iova 0) wherever iova2 exists");
            Window source = Window.of(pair.firstBuffer().region());
            Window target = Window.of(pair.secondBuffer().region());
            RemoteWindow remote = remoteOf(target);
            SignalSlot arrived = target.slot(8);
            RemoteSlot arrivedRemote = remote.slot(8);
            SignalSlot counter = source.slot(0);
            int ops = 1000;
            for (int i = 1; i <= ops; i++) {
                int length = 1 + (i * 7919) % 2000;
                int at = DATA + (i % 8) * 2048;
                pair.firstBuffer().fillPattern(i, at, length);
                sender.putWithSignalAndCounter(remote, at, source, at, length, arrivedRemote, 1, counter);
                assertEquals(i, receiver.waitSignal(arrived, i, TIMEOUT), "one add per put");
                pair.secondBuffer().assertPattern(i, at, length);
            }
            assertEquals(ops, sender.waitCounter(counter, ops, TIMEOUT));
            long ticket = sender.signalWithCounter(arrivedRemote, 10, counter);
            sender.waitLocal(ticket, TIMEOUT);
            assertEquals(ops + 10, receiver.readSignal(arrived));
            assertEquals(ops + 1, sender.waitCounter(counter, ops + 1, TIMEOUT), "signalWithCounter counts too");

            sender.waitLocal(sender.resetSignal(arrivedRemote), TIMEOUT);
            assertEquals(0, receiver.readSignal(arrived), "reset is an RDMA write of 0");
            sender.waitLocal(sender.setSignal(arrivedRemote, 42, true), TIMEOUT);
            assertEquals(42, receiver.readSignal(arrived));
            sender.waitLocal(sender.signal(arrivedRemote, -2, false), TIMEOUT);
            assertEquals(40, receiver.readSignal(arrived));
            sender.resetCounter(counter, TIMEOUT);
            assertEquals(0, sender.readSignal(counter), "the counter reset goes through the companion");
            sender.put(remote, DATA, source, DATA, 0);      // a zero-length put is legal
            assertFalse(sender.failure().isPresent());
        }
    }

    /**
     * 0 B/op: the thread's allocated bytes around 2,000 putWithSignal + waitSignal rounds after a
     * warm-up. Not a timing test.
     */
    @DeviceTest
    void putWithSignalAndItsWaitAllocateNothing(TestDevice device) throws Exception {
        // Reflectively: the test module does not read jdk.management. Each read boxes one Long (16 B).
        Object threads = Class.forName("java.lang.management.ManagementFactory").getMethod("getThreadMXBean").invoke(null);
        java.lang.reflect.Method allocated = Class.forName("com.sun.management.ThreadMXBean")
                .getMethod("getCurrentThreadAllocatedBytes");
        try (RcLoopbackPair pair = RcLoopbackPair.open(device);
             OneSidedChannel sender = OneSidedChannel.open(pair.first());
             OneSidedChannel receiver = OneSidedChannel.open(pair.second())) {
            Window source = Window.of(pair.firstBuffer().region());
            Window target = Window.of(pair.secondBuffer().region());
            RemoteWindow remote = remoteOf(target);
            RemoteSlot slot = remote.slot(32);
            SignalSlot arrived = target.slot(32);
            SignalSlot counter = source.slot(32);
            long round = rounds(sender, receiver, remote, source, slot, arrived, counter, 0, 3_000);
            long before = (long) allocated.invoke(threads);
            rounds(sender, receiver, remote, source, slot, arrived, counter, round, 2_000);
            long bytes = (long) allocated.invoke(threads) - before;
            System.out.println("OneSidedDeviceTest: " + bytes + " bytes allocated in 2000 putWithSignal(AndCounter)"
                    + " + waitSignal rounds");
            assertTrue(bytes < 2_000, bytes + " bytes in 2000 rounds: the data path allocates");
        }
    }

    private static long rounds(OneSidedChannel sender, OneSidedChannel receiver, RemoteWindow remote, Window source,
            RemoteSlot slot, SignalSlot arrived, SignalSlot counter, long from, int count) throws InterruptedException {
        long i = from;
        for (int n = 0; n < count; n++) {
            i++;
            if ((i & 1) == 0) {
                sender.putWithSignal(remote, DATA, source, DATA, 64, slot, 1);
            } else {
                sender.putWithSignalAndCounter(remote, DATA, source, DATA, 64, slot, 1, counter);
            }
            receiver.waitSignal(arrived, i, TIMEOUT);
        }
        return i;
    }

    @DeviceTest
    void aBadRkeyFailsTheOperationAndEveryWaitWithTheCompletionStatus(TestDevice device) throws Exception {
        try (RcLoopbackPair pair = RcLoopbackPair.open(device);
             OneSidedChannel sender = OneSidedChannel.open(pair.first())) {
            Window source = Window.of(pair.firstBuffer().region());
            WindowDescriptor good = Window.of(pair.secondBuffer().region()).descriptor();
            RemoteWindow bad = RemoteWindow.open(new WindowDescriptor(good.address(), good.length(), good.rkey() ^ 0x5A5A00));
            SignalSlot counter = source.slot(0);
            long ticket = sender.putWithSignalAndCounter(bad, DATA, source, DATA, 64, bad.slot(8), 1, counter);

            ChannelFailedException op = assertThrows(ChannelFailedException.class, () -> sender.waitLocal(ticket, TIMEOUT));
            assertEquals(CompletionStatus.REM_ACCESS_ERR, op.status(), op.getMessage());
            ChannelFailedException waitCounter = assertThrows(ChannelFailedException.class,
                    () -> sender.waitCounter(counter, 1, TIMEOUT));
            assertEquals(CompletionStatus.REM_ACCESS_ERR, waitCounter.status());
            assertTrue(waitCounter.getMessage().contains("counter slot 0 of Window[") && waitCounter.getMessage()
                    .contains("last value seen 0"), waitCounter.getMessage());
            assertEquals(0, sender.readSignal(counter), "a failed operation is not counted");
            ChannelFailedException next = assertThrows(ChannelFailedException.class,
                    () -> sender.put(bad, DATA, source, DATA, 8));
            assertTrue(next.getMessage().startsWith("put failed: the channel's work completion failed: status REM_ACCESS_ERR"),
                    next.getMessage());
            assertEquals(CompletionStatus.REM_ACCESS_ERR, sender.failure().orElseThrow().status());
        }
    }

    @DeviceTest
    void aWaitTimesOutNamingTheSlotAndTheLastValue(TestDevice device) throws Exception {
        try (RcLoopbackPair pair = RcLoopbackPair.open(device);
             OneSidedChannel sender = OneSidedChannel.open(pair.first());
             OneSidedChannel receiver = OneSidedChannel.open(pair.second())) {
            Window target = Window.of(pair.secondBuffer().region());
            sender.waitLocal(sender.signal(remoteOf(target).slot(16), 5, true), TIMEOUT);
            WaitTimeoutException e = assertThrows(WaitTimeoutException.class,
                    () -> receiver.waitSignal(target.slot(16), 6, Duration.ofMillis(50)));
            assertTrue(e.getMessage().contains("signal slot 16 of Window[0x"), e.getMessage());
            assertTrue(e.getMessage().endsWith("to reach 6: last value seen 5"), e.getMessage());
            assertEquals(5, e.lastSeen());
        }
    }

    @DeviceTest
    void aVirtualThreadWaitsForTheSignal(TestDevice device) throws Exception {
        try (RcLoopbackPair pair = RcLoopbackPair.open(device);
             OneSidedChannel sender = OneSidedChannel.open(pair.first());
             OneSidedChannel receiver = OneSidedChannel.open(pair.second())) {
            Window source = Window.of(pair.firstBuffer().region());
            Window target = Window.of(pair.secondBuffer().region());
            AtomicReference<Object> outcome = new AtomicReference<>();
            Thread waiter = Thread.ofVirtual().start(() -> {
                try {
                    outcome.set(receiver.waitSignal(target.slot(24), 1, TIMEOUT));
                } catch (Throwable t) {
                    outcome.set(t);
                }
            });
            Thread.sleep(100);                    // the waiter is parked by now, past its spins
            pair.firstBuffer().fillPattern(77, DATA, 3000);
            sender.putWithSignal(remoteOf(target), DATA, source, DATA, 3000, remoteOf(target).slot(24), 1);
            waiter.join(TIMEOUT.toMillis());
            assertEquals(1L, outcome.get());
            pair.secondBuffer().assertPattern(77, DATA, 3000);
        }
    }

    @DeviceTest
    void badArgumentsFailBeforeAnyPost(TestDevice device) {
        try (RcLoopbackPair pair = RcLoopbackPair.open(device);
             OneSidedChannel sender = OneSidedChannel.open(pair.first())) {
            Window source = Window.of(pair.firstBuffer().region());
            RemoteWindow remote = remoteOf(Window.of(pair.secondBuffer().region()));
            assertThrows(IndexOutOfBoundsException.class, () -> sender.put(remote, 65536 - 8, source, 0, 16));
            assertThrows(IndexOutOfBoundsException.class, () -> sender.put(remote, 0, source, 65536 - 8, 16));
            assertThrows(IllegalArgumentException.class, () -> source.slot(4));
            assertThrows(IndexOutOfBoundsException.class, () -> source.slot(65536));
            ProtectionDomain other = pair.context().allocateProtectionDomain();
            try (RegisteredBuffer elsewhere = RegisteredBuffer.allocate(other, 4096)) {
                SignalSlot foreign = Window.of(elsewhere.region()).slot(0);
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                        () -> sender.signalWithCounter(remote.slot(0), 1, foreign));
                assertTrue(e.getMessage().contains("another protection domain"), e.getMessage());
            }
            assertFalse(sender.failure().isPresent(), "nothing was posted");
        }
    }
}
