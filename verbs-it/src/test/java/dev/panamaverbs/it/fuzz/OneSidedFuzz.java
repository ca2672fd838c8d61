package dev.panamaverbs.it.fuzz;

import dev.panamaverbs.onesided.ChannelClosedException;
import dev.panamaverbs.onesided.ChannelFailedException;
import dev.panamaverbs.onesided.OneSidedChannel;
import dev.panamaverbs.onesided.RemoteSlot;
import dev.panamaverbs.onesided.RemoteWindow;
import dev.panamaverbs.onesided.SignalSlot;
import dev.panamaverbs.onesided.Window;
import dev.panamaverbs.onesided.WindowDescriptor;
import dev.panamaverbs.testkit.RcLoopbackPair;
import dev.panamaverbs.testkit.TestDevice;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * One-sided windows and channels, in three categories' cases: use after close of channels and
 * windows (every public method, in a seeded order, after seeded closes), close racing waiters and
 * a poster on other threads, and out-of-range puts, slots and descriptors at the edges of int and
 * long. Each case ends clean or with a documented exception; the races also end, every thread,
 * within seconds.
 */
final class OneSidedFuzz {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final Duration SHORT = Duration.ofMillis(1);
    private static final int SIZE = 4096;
    private static final long[] EDGES = {-1, 0, 1, 7, 8, SIZE - 8, SIZE - 1, SIZE, SIZE + 8, Integer.MAX_VALUE,
            Integer.MIN_VALUE, 1L << 32, Long.MAX_VALUE, Long.MIN_VALUE};
    private static final int RACE_ROUNDS = 6;
    private static final int RANGE_CASES = 60;

    private OneSidedFuzz() {}

    /** A channel and two windows (one allocating its region, one over a caller's), some closed, then every call. */
    static void useAfterClose(TestDevice device, FuzzRun run) {
        Random random = run.random();
        try (RcLoopbackPair pair = RcLoopbackPair.open(device)) {
            OneSidedChannel channel = OneSidedChannel.open(pair.first());
            Window owned = Window.allocate(pair.protectionDomain(), SIZE);
            Window borrowed = Window.of(pair.firstBuffer().region());
            RemoteWindow remote = RemoteWindow.open(WindowDescriptor.of(pair.secondBuffer().region()));
            RemoteSlot remoteSlot = remote.slot(0);
            SignalSlot ownedSlot = owned.slot(8);
            SignalSlot borrowedSlot = borrowed.slot(16);
            List<AutoCloseable> closeables = new ArrayList<>(List.of(channel, owned, borrowed));
            Collections.shuffle(closeables, random);
            // The first always, the others each with even odds: every mix of open and closed parts.
            for (int i = 0; i < closeables.size(); i++) {
                if (i == 0 || random.nextBoolean()) {
                    AutoCloseable closeable = closeables.get(i);
                    run.run("close " + closeable, List.of(), closeable::close);
                }
            }
            List<Call> calls = new ArrayList<>(List.of(
                    new Call("put", () -> channel.put(remote, 0, borrowed, 0, 8)),
                    new Call("put from owned", () -> channel.put(remote, 0, owned, 0, 8)),
                    new Call("signal", () -> channel.signal(remoteSlot, 1, true)),
                    new Call("setSignal", () -> channel.setSignal(remoteSlot, 1, false)),
                    new Call("resetSignal", () -> channel.resetSignal(remoteSlot)),
                    new Call("putWithSignal", () -> channel.putWithSignal(remote, 64, borrowed, 64, 8, remoteSlot, 1)),
                    new Call("putWithSignalAndCounter", () -> channel.putWithSignalAndCounter(remote, 64, borrowed, 64, 8,
                            remoteSlot, 1, ownedSlot)),
                    new Call("signalWithCounter", () -> channel.signalWithCounter(remoteSlot, 1, borrowedSlot)),
                    new Call("progress", channel::progress),
                    new Call("isComplete", () -> channel.isComplete(1)),
                    new Call("waitLocal", () -> channel.waitLocal(Long.MAX_VALUE, SHORT)),
                    new Call("waitSignal owned", () -> channel.waitSignal(ownedSlot, 1, SHORT)),
                    new Call("waitSignal borrowed", () -> channel.waitSignal(borrowedSlot, 1, SHORT)),
                    new Call("waitCounter", () -> channel.waitCounter(ownedSlot, 1, SHORT)),
                    new Call("resetCounter", () -> channel.resetCounter(borrowedSlot, SHORT)),
                    new Call("readSignal", () -> channel.readSignal(ownedSlot)),
                    new Call("failure", channel::failure),
                    new Call("sinkIsZeroBased", channel::sinkIsZeroBased),
                    new Call("queuePair", channel::queuePair),
                    new Call("channel toString", channel::toString),
                    new Call("owned memory", owned::memory),
                    new Call("owned slot", () -> owned.slot(0)),
                    new Call("owned descriptor", owned::descriptor),
                    new Call("owned region", owned::region),
                    new Call("owned slot read", ownedSlot::read),
                    new Call("owned slot address", ownedSlot::address),
                    new Call("borrowed memory", borrowed::memory),
                    new Call("borrowed slot", () -> borrowed.slot(SIZE)),
                    new Call("borrowed slot read", borrowedSlot::read),
                    new Call("borrowed descriptor bytes", () -> borrowed.descriptor().toBytes()),
                    new Call("owned toString", owned::toString),
                    new Call("close channel again", channel::close),
                    new Call("close owned again", owned::close),
                    new Call("close borrowed again", borrowed::close)));
            Collections.shuffle(calls, random);
            for (Call call : calls) {
                run.misuse(call.name(), call.body());
            }
            channel.close();
            owned.close();
            borrowed.close();
        }
    }

    /**
     * Rounds of close racing other threads: a waiter on one channel watches a slot of a window, a
     * poster drives the other channel (signals into that window, each waited for), and a closer
     * closes both channels and both windows in a seeded order after a seeded pause. Every thread
     * must end within seconds: the waiter and the poster with {@link ChannelClosedException}, a
     * use-after-close "is closed", or, for the poster, {@link ChannelFailedException} once the
     * window it writes is gone; no close may throw.
     */
    static void closeRace(TestDevice device, FuzzRun run) {
        Random random = run.random();
        for (int round = 0; round < RACE_ROUNDS; round++) {
            int pauseMillis = random.nextInt(20);
            long order = random.nextLong();
            run.run("one-sided round " + round + " close after " + pauseMillis + " ms", List.of(),
                    () -> race(device, pauseMillis, new Random(order)));
        }
    }

    private static void race(TestDevice device, int pauseMillis, Random random) throws Exception {
        try (RcLoopbackPair pair = RcLoopbackPair.open(device)) {
            OneSidedChannel waiting = OneSidedChannel.open(pair.first());
            OneSidedChannel posting = OneSidedChannel.open(pair.second());
            Window owned = Window.allocate(pair.protectionDomain(), SIZE);
            Window borrowed = Window.of(pair.firstBuffer().region());
            Window watched = random.nextBoolean() ? owned : borrowed;
            SignalSlot slot = watched.slot(0);
            RemoteSlot target = RemoteWindow.open(watched.descriptor()).slot(0);
            ConcurrentLinkedQueue<Throwable> unexpected = new ConcurrentLinkedQueue<>();
            CountDownLatch started = new CountDownLatch(2);
            List<Thread> workers = List.of(
                    Thread.ofPlatform().start(() -> expectEnded(started, unexpected,
                            () -> waiting.waitSignal(slot, Long.MAX_VALUE, WAIT))),
                    Thread.ofVirtual().start(() -> expectEnded(started, unexpected, () -> {
                        while (true) {
                            posting.waitLocal(posting.signal(target, 1, false), WAIT);
                        }
                    })));
            if (!started.await(10, TimeUnit.SECONDS)) {
                throw new AssertionError("the workers did not start");
            }
            Thread.sleep(pauseMillis);
            List<AutoCloseable> closeables = new ArrayList<>(List.of(waiting, posting, owned, borrowed));
            Collections.shuffle(closeables, random);
            for (AutoCloseable closeable : closeables) {
                closeable.close();
            }
            FuzzWorkers.awaitEnd(workers, unexpected, "end after the closes", "workers ended otherwise");
        }
    }

    private static void expectEnded(CountDownLatch started, ConcurrentLinkedQueue<Throwable> unexpected, FuzzRun.Body body) {
        started.countDown();
        try {
            body.run();
            unexpected.add(new AssertionError("returned instead of ending with the close"));
        } catch (ChannelClosedException | ChannelFailedException expected) {
            // ended by the close, or by the completion that failed when the target window closed
        } catch (IllegalStateException e) {
            if (e.getMessage() == null || !e.getMessage().endsWith(" is closed")) {
                unexpected.add(e);
            }
        } catch (Throwable e) {
            unexpected.add(e);
        }
    }

    /**
     * Seeded puts, local and remote slots and descriptors at the edges: offsets, lengths and
     * addresses of {@link #EDGES}, on a live pair (a put the checks let through runs; one the
     * device fails shows as {@link ChannelFailedException} from then on, which is documented too).
     */
    static void outOfRange(TestDevice device, FuzzRun run) {
        Random random = run.random();
        try (RcLoopbackPair pair = RcLoopbackPair.open(device);
                OneSidedChannel channel = OneSidedChannel.open(pair.first());
                Window local = Window.allocate(pair.protectionDomain(), SIZE);
                Window peer = Window.allocate(pair.protectionDomain(), SIZE)) {
            RemoteWindow remote = RemoteWindow.open(peer.descriptor());
            for (int i = 0; i < RANGE_CASES; i++) {
                long a = edge(random);
                long b = edge(random);
                int length = (int) edge(random);
                String name = i + " ";
                switch (random.nextInt(7)) {
                    case 0 -> run.misuse(name + "put(dst " + a + ", src " + b + ", length " + length + ")",
                            () -> channel.waitLocal(channel.put(remote, a, local, b, length), WAIT));
                    case 1 -> run.misuse(name + "putWithSignal(dst " + a + ", src " + b + ", length " + length + ", slot "
                            + b + ")", () -> channel.waitLocal(channel.putWithSignal(remote, a, local, b, length,
                            remote.slot(b), 1), WAIT));
                    case 2 -> run.misuse(name + "local slot " + a, () -> local.slot(a).read());
                    case 3 -> run.misuse(name + "remote slot " + a, () -> channel.waitLocal(channel.signal(remote.slot(a),
                            1, false), WAIT));
                    case 4 -> run.misuse(name + "addressAt(" + a + ", " + b + ")", () -> remote.addressAt(a, b));
                    case 5 -> run.misuse(name + "descriptor(" + a + ", " + b + ", " + length + ")", () -> {
                        RemoteWindow made = RemoteWindow.open(new WindowDescriptor(a, b, length));
                        made.addressAt(0, 8);
                        made.slot(0);
                    });
                    default -> {
                        byte[] bytes = new byte[random.nextInt(2) == 0 ? WindowDescriptor.BYTES : random.nextInt(40)];
                        random.nextBytes(bytes);
                        if (bytes.length > 0 && random.nextBoolean()) {
                            bytes[0] = WindowDescriptor.VERSION;
                        }
                        run.misuse(name + "fromBytes(" + bytes.length + " random bytes)",
                                () -> WindowDescriptor.fromBytes(bytes));
                    }
                }
            }
        }
    }

    private static long edge(Random random) {
        return random.nextInt(4) == 0 ? 8L * random.nextInt(SIZE / 8 + 2) : EDGES[random.nextInt(EDGES.length)];
    }

    private record Call(String name, FuzzRun.Body body) {}
}
