package dev.panamaverbs.it.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panamaverbs.it.support.KernelResources;
import dev.panamaverbs.onesided.ChannelClosedException;
import dev.panamaverbs.onesided.OneSidedChannel;
import dev.panamaverbs.onesided.SignalSlot;
import dev.panamaverbs.onesided.Window;
import dev.panamaverbs.testkit.DeviceTest;
import dev.panamaverbs.testkit.RcLoopbackPair;
import dev.panamaverbs.testkit.TestDevice;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Issue 21 point 3 for the one-sided package: a {@link OneSidedChannel} and a {@link Window}
 * closed from other threads while threads wait on them. Each waiter must end within seconds
 * (its own timeout is minutes) with {@link ChannelClosedException}, or, when the close came before
 * its call, with the "is closed" {@link IllegalStateException} of a use after close; never with
 * a closed arena's exception or at its timeout. No close may throw, and the kernel counts no
 * object left once the rounds are over.
 */
class OneSidedCloseDeviceTest {
    private static final int ROUNDS = 100;
    /** Far beyond the test: a waiter that ends at its timeout has not been ended by the close. */
    private static final Duration WAIT = Duration.ofMinutes(10);
    /** How long a waiter may take to end after the closes (generous for TCG under load). */
    private static final long END_BOUND_SECONDS = 30;

    /**
     * {@value #ROUNDS} rounds: two channels (one on each queue pair of an RC loop-back pair) and
     * two windows (one allocating its region, one over the pair's buffer), a waiter on each
     * channel (a platform and a virtual thread) watching a slot of one window, and three closers
     * started at once: channel and window, window and channel, both channels (a close racing a
     * close). Which close ends a waiter varies with the round.
     */
    @DeviceTest
    void closingChannelsAndWindowsUnderWaitingThreadsEndsTheWaitersAndLeaksNothing(TestDevice device)
            throws Exception {
        Map<String, Integer> before = KernelResources.countIfAvailable(device.name());
        AtomicInteger endedByClose = new AtomicInteger();
        try (RcLoopbackPair pair = RcLoopbackPair.open(device)) {
            Map<String, Integer> withPair = KernelResources.countIfAvailable(device.name());
            for (int round = 0; round < ROUNDS; round++) {
                endedByClose.addAndGet(round(pair, round));
            }
            assertEquals(withPair, KernelResources.countIfAvailable(device.name()),
                    "kernel objects left by " + ROUNDS + " rounds of channels and windows");
        }
        assertEquals(before, KernelResources.countIfAvailable(device.name()));
        System.out.println("one-sided close: " + endedByClose + " of " + 2 * ROUNDS
                + " waiters ended by a close under way, the rest refused at their call; kernel counts "
                + (before.isEmpty() ? "not checked (no rdma tool)" : "back at " + before));
        // Each waiter's call was under way milliseconds before the closes (see round): unless the
        // host starved them all, many were ended by a close rather than refused at their call.
        assertTrue(endedByClose.get() > ROUNDS / 2, endedByClose + " of " + 2 * ROUNDS
                + " waiters were ended by a close under way");
    }

    /** One round; returns how many of its two waiters a close ended under way. */
    private static int round(RcLoopbackPair pair, int round) throws Exception {
        OneSidedChannel first = OneSidedChannel.open(pair.first());
        OneSidedChannel second = OneSidedChannel.open(pair.second());
        Window owned = Window.allocate(pair.protectionDomain(), 4096);
        Window borrowed = Window.of(pair.secondBuffer().region());
        ConcurrentLinkedQueue<Throwable> unexpected = new ConcurrentLinkedQueue<>();
        AtomicInteger endedByClose = new AtomicInteger();
        CountDownLatch waiting = new CountDownLatch(2);
        // Slots made before the closes: a waiter must meet the close inside its wait.
        SignalSlot ownedSlot = owned.slot(0);
        SignalSlot borrowedSlot = borrowed.slot(8 * (round % 64));
        List<Thread> waiters = List.of(
                Thread.ofPlatform().start(() -> await(first, ownedSlot, waiting, endedByClose, unexpected)),
                Thread.ofVirtual().start(() -> await(second, borrowedSlot, waiting, endedByClose, unexpected)));
        assertTrue(waiting.await(END_BOUND_SECONDS, TimeUnit.SECONDS), "round " + round + ": the waiters did not start");
        Thread.sleep(2 + round % 5); // inside their waits, some spinning, some parked
        List<AutoCloseable> x = round % 2 == 0 ? List.of(first, owned) : List.of(owned, first);
        List<AutoCloseable> y = round % 3 == 0 ? List.of(borrowed, second) : List.of(second, borrowed);
        List<AutoCloseable> z = round % 4 < 2 ? List.of(first, second) : List.of(second, first);
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> closers = new ArrayList<>();
        for (List<AutoCloseable> order : List.of(x, y, z)) {
            closers.add(Thread.ofPlatform().start(() -> closeAll(go, order, unexpected)));
        }
        go.countDown();
        for (Thread thread : closers) {
            thread.join(TimeUnit.SECONDS.toMillis(END_BOUND_SECONDS));
            assertFalse(thread.isAlive(), "round " + round + ": a close did not return");
        }
        for (Thread thread : waiters) {
            thread.join(TimeUnit.SECONDS.toMillis(END_BOUND_SECONDS));
            assertFalse(thread.isAlive(), "round " + round + ": a waiter did not end after the closes");
        }
        assertEquals(List.of(), List.copyOf(unexpected), "round " + round);
        assertTrue(first.isClosed() && second.isClosed() && owned.isClosed() && borrowed.isClosed());
        assertFalse(pair.secondBuffer().region().isClosed(), "a window over a caller's region leaves it open");
        return endedByClose.get();
    }

    private static void await(OneSidedChannel channel, SignalSlot slot, CountDownLatch waiting,
            AtomicInteger endedByClose, ConcurrentLinkedQueue<Throwable> unexpected) {
        waiting.countDown();
        try {
            long value = channel.waitSignal(slot, Long.MAX_VALUE, WAIT);
            unexpected.add(new AssertionError("the wait answered " + value));
        } catch (ChannelClosedException e) {
            endedByClose.incrementAndGet();
        } catch (IllegalStateException e) {
            if (e.getMessage() == null || !e.getMessage().endsWith(" is closed")) {
                unexpected.add(e); // a closed arena's "Already closed", say
            }
        } catch (Throwable e) {
            unexpected.add(e);
        }
    }

    private static void closeAll(CountDownLatch go, List<AutoCloseable> order, ConcurrentLinkedQueue<Throwable> unexpected) {
        try {
            go.await();
            for (AutoCloseable closeable : order) {
                closeable.close();
            }
        } catch (Throwable e) {
            unexpected.add(e);
        }
    }

    /**
     * A window closed under a wait on one of its slots ends that wait with
     * {@link ChannelClosedException} naming the window; the channel stays usable, and the closed
     * window refuses its memory and new slots.
     */
    @DeviceTest
    void closingAWindowEndsAWaitOnItsSlotAndLeavesTheChannelUsable(TestDevice device) throws Exception {
        try (OneSidedSides s = OneSidedSides.open(device); Window extra = Window.allocate(s.pair().protectionDomain(), 64)) {
            SignalSlot slot = extra.slot(0);
            CountDownLatch waiting = new CountDownLatch(1);
            ConcurrentLinkedQueue<Throwable> ended = new ConcurrentLinkedQueue<>();
            Thread waiter = Thread.ofPlatform().start(() -> {
                waiting.countDown();
                try {
                    s.receiver().waitSignal(slot, 1, WAIT);
                } catch (Throwable e) {
                    ended.add(e);
                }
            });
            assertTrue(waiting.await(END_BOUND_SECONDS, TimeUnit.SECONDS));
            Thread.sleep(20);
            extra.close();
            waiter.join(TimeUnit.SECONDS.toMillis(END_BOUND_SECONDS));
            assertFalse(waiter.isAlive(), "the wait did not end when its window closed");
            Throwable e = ended.peek();
            assertTrue(e instanceof ChannelClosedException, String.valueOf(e));
            assertTrue(e.getMessage().contains("closed Window[0x"), e.getMessage());
            assertThrows(IllegalStateException.class, extra::memory);
            assertThrows(IllegalStateException.class, () -> extra.slot(8));
            assertThrows(IllegalStateException.class, slot::read);
            IllegalStateException refused = assertThrows(IllegalStateException.class,
                    () -> s.receiver().waitSignal(slot, 1, WAIT));
            assertTrue(refused.getMessage().endsWith("the window is closed"), refused.getMessage());
            // the channel still works
            s.sender().waitLocal(s.sender().signal(s.remote().slot(16), 3, false), Duration.ofSeconds(20));
            assertEquals(3, s.receiver().waitSignal(s.target().slot(16), 3, Duration.ofSeconds(20)));
        }
    }

    /** After close every operation and wait of the channel is refused with "is closed"; close stays idempotent. */
    @DeviceTest
    void aClosedChannelRefusesEveryCall(TestDevice device) {
        try (OneSidedSides s = OneSidedSides.open(device)) {
            OneSidedChannel sender = s.sender();
            sender.close();
            sender.close();
            assertTrue(sender.isClosed());
            SignalSlot counter = s.source().slot(0);
            List<Runnable> calls = List.of(
                    () -> sender.put(s.remote(), 0, s.source(), 0, 8),
                    () -> sender.signal(s.remote().slot(0), 1, true),
                    () -> sender.setSignal(s.remote().slot(0), 1, false),
                    () -> sender.resetSignal(s.remote().slot(0)),
                    () -> sender.putWithSignal(s.remote(), 0, s.source(), 0, 8, s.remote().slot(0), 1),
                    () -> sender.putWithSignalAndCounter(s.remote(), 0, s.source(), 0, 8, s.remote().slot(0), 1, counter),
                    () -> sender.signalWithCounter(s.remote().slot(0), 1, counter),
                    sender::progress,
                    () -> interruptible(() -> sender.waitLocal(1, WAIT)),
                    () -> interruptible(() -> sender.waitSignal(counter, 1, WAIT)),
                    () -> interruptible(() -> sender.waitCounter(counter, 1, WAIT)),
                    () -> interruptible(() -> sender.resetCounter(counter, WAIT)));
            for (Runnable call : calls) {
                IllegalStateException e = assertThrows(IllegalStateException.class, call::run);
                assertTrue(e.getMessage().endsWith(" is closed"), e.getMessage());
            }
            assertTrue(sender.toString().endsWith(", closed]"), sender.toString());
        }
    }

    private interface Wait {
        void run() throws InterruptedException;
    }

    private static void interruptible(Wait wait) {
        try {
            wait.run();
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }
}
