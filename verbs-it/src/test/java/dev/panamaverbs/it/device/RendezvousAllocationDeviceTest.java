package dev.panamaverbs.it.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panamaverbs.it.support.RdmaCmSupport;
import dev.panamaverbs.messaging.ChannelOptions;
import dev.panamaverbs.messaging.MessageChannel;
import dev.panamaverbs.messaging.registration.RegistrationBudget;
import dev.panamaverbs.testkit.DeviceTest;
import dev.panamaverbs.testkit.TestDevice;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Issue 24, "0 B/op on the message path once warm", for rendezvous (rxe through rdma_cm, both
 * ends in one JVM): after a warm-up of small rendezvous messages, then of 1 MiB ones, 1 MiB
 * messages go by blocking {@code send} from one native source (registered once by the
 * channel's cache) and arrive by the copying {@code receive(destination, timeout)}, each
 * stamped and checked. The sending and the receiving thread count their allocated bytes
 * ({@code com.sun.management.ThreadMXBean}) at the edges of {@link #WINDOWS} windows, and the
 * receiving thread reads the shared poller thread's as well (which carries both ends' completions
 * here). For each end the quietest window must stay below one byte per message (the JIT's
 * allowance for a compile's one-off work, as in {@code EventHandlerAllocationDeviceTest}; an
 * object per message, 16 bytes at least, fails every window), and its whole measured phase below
 * 64 bytes per message. The poller thread's quietest window must stay below 64 bytes per message
 * (the bound for this test): it serves every channel's events and the JVM's, and a run
 * measured 9 B per message there in its quietest window, not traced (1.7 KB before this change).
 */
class RendezvousAllocationDeviceTest {
    private static final int SMALL = 16 * 1024;
    private static final int LARGE = 1 << 20;
    /** Small rendezvous messages first: past the compile thresholds of the path at the emulator's rates. */
    private static final int WARM_SMALL = 6_000;
    /** Then 1 MiB ones: the channel keeps a destination of that size from here on. */
    private static final int WARM_LARGE = 30;
    private static final int MEASURED = 150;
    private static final int WINDOWS = 5;
    private static final int WINDOW = MEASURED / WINDOWS;
    private static final int WARM = WARM_SMALL + WARM_LARGE;
    private static final Duration LONG = Duration.ofSeconds(120);
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    @DeviceTest
    void aWarmRendezvousAllocatesNothingOnTheSendingReceivingAndPollerThreads(TestDevice device) throws Exception {
        InetAddress ip = RdmaCmSupport.requireRdmaCm(device);
        assertTrue(THREADS.isThreadAllocatedMemorySupported(), "this JVM cannot count allocated bytes");
        THREADS.setThreadAllocatedMemoryEnabled(true);
        // An unlimited cache budget: the VM's memlock soft limit is small (the test runs as root).
        ChannelOptions options = ChannelOptions.builder().receiveCredits(8).sendBuffers(4).maxMessageSize(4096)
                .rendezvousRegistrationBudget(RegistrationBudget.unlimited()).build();
        try (Arena arena = Arena.ofShared(); ChannelLoop loop = ChannelLoop.open(ip, options, options)) {
            MessageChannel client = loop.client;
            MessageChannel serverSide = loop.serverSide;
            assertTrue(SMALL > client.rendezvousThreshold(), "the small messages go by rendezvous too");
            MemorySegment source = arena.allocate(LARGE, 4096);
            // Made once: a slice per message would be the test's own allocation.
            MemorySegment small = source.asSlice(0, SMALL);
            MemorySegment destination = arena.allocate(LARGE, 64);
            long[] sentAt = new long[WINDOWS + 1];
            long[] receivedAt = new long[WINDOWS + 1];
            long[] receivedResumed = new long[WINDOWS + 1];
            long[] pollerAt = new long[WINDOWS + 1];
            long poller = pollerThreadId();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Thread receiver = Thread.ofPlatform().name("rendezvous-receiver").start(() -> {
                try {
                    for (int m = 0; m < WARM + MEASURED; m++) {
                        int measured = m - WARM;
                        if (measured >= 0 && measured % WINDOW == 0) {
                            edge(measured / WINDOW, receivedAt, receivedResumed, pollerAt, poller);
                        }
                        int length = serverSide.receive(destination, LONG);
                        int size = m < WARM_SMALL ? SMALL : LARGE;
                        if (length != size || destination.get(ValueLayout.JAVA_LONG, 0) != m
                                || destination.get(ValueLayout.JAVA_LONG, size - 8) != m) {
                            throw new AssertionError("message " + m + ": " + length + " bytes, stamps "
                                    + destination.get(ValueLayout.JAVA_LONG, 0) + " and "
                                    + destination.get(ValueLayout.JAVA_LONG, Math.max(0, length - 8)));
                        }
                    }
                    edge(WINDOWS, receivedAt, receivedResumed, pollerAt, poller);
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            });
            Thread sender = Thread.ofPlatform().name("rendezvous-sender").start(() -> {
                try {
                    for (int m = 0; m < WARM + MEASURED; m++) {
                        int measured = m - WARM;
                        if (measured >= 0 && measured % WINDOW == 0) {
                            sentAt[measured / WINDOW] = THREADS.getCurrentThreadAllocatedBytes();
                        }
                        MemorySegment data = m < WARM_SMALL ? small : source;
                        data.set(ValueLayout.JAVA_LONG, 0, m);
                        data.set(ValueLayout.JAVA_LONG, data.byteSize() - 8, m);
                        client.send(data, LONG); // returns at the receiver's DONE: the source may change again
                    }
                    sentAt[WINDOWS] = THREADS.getCurrentThreadAllocatedBytes();
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            });
            long start = System.nanoTime();
            sender.join(600_000);
            receiver.join(LONG.toMillis());
            long millis = (System.nanoTime() - start) / 1_000_000;
            if (sender.isAlive() || receiver.isAlive()) {
                loop.close(); // ends a send or receive that is stuck, so the threads end
            }
            assertNull(failure.get(), () -> "the exchange failed: " + failure.get());
            long[] sending = windows(sentAt, sentAt);
            long[] receiving = windows(receivedAt, receivedResumed);
            long[] polling = windows(pollerAt, pollerAt);
            System.out.printf("rendezvous allocation: %d messages in %d ms; bytes in windows of %d x 1 MiB after %d + %d"
                    + " warm-up: sending %s, receiving %s, poller %s%n", WARM + MEASURED, millis, WINDOW, WARM_SMALL,
                    WARM_LARGE, Arrays.toString(sending), Arrays.toString(receiving), Arrays.toString(polling));
            assertQuiet("sending", sending, 1);
            assertQuiet("receiving", receiving, 1);
            assertQuiet("poller", polling, 64);
            assertTrue(Arrays.stream(sending).sum() < 64L * MEASURED, "sending: " + Arrays.toString(sending));
            assertTrue(Arrays.stream(receiving).sum() < 64L * MEASURED, "receiving: " + Arrays.toString(receiving));
            assertEquals(0, serverSide.statistics().pendingRequests());
        }
    }

    /**
     * The receiving thread's window edge {@code w}: its own bytes, then the poller's (reading
     * another thread's count allocates), then its own again, where the next window starts.
     */
    private static void edge(int w, long[] receivedAt, long[] receivedResumed, long[] pollerAt, long poller) {
        receivedAt[w] = THREADS.getCurrentThreadAllocatedBytes();
        pollerAt[w] = THREADS.getThreadAllocatedBytes(poller);
        receivedResumed[w] = THREADS.getCurrentThreadAllocatedBytes();
    }

    /** {@return each window's bytes: from where it resumed to where it ended} */
    private static long[] windows(long[] endedAt, long[] resumedAt) {
        long[] windows = new long[WINDOWS];
        for (int w = 0; w < WINDOWS; w++) {
            windows[w] = endedAt[w + 1] - resumedAt[w];
        }
        return windows;
    }

    /** The quietest window must stay below {@code bytesPerMessage} per message. */
    private static void assertQuiet(String thread, long[] windows, int bytesPerMessage) {
        long quietest = Arrays.stream(windows).min().orElseThrow();
        assertTrue(quietest < (long) bytesPerMessage * WINDOW, "the " + thread + " thread allocated "
                + Arrays.toString(windows) + " B in windows of " + WINDOW + " rendezvous messages of 1 MiB ("
                + bytesPerMessage + " B per message or more in every window)");
    }

    private static long pollerThreadId() {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals("panamaverbs-poller"))
                .findFirst().orElseThrow(() -> new AssertionError("no panamaverbs-poller thread")).threadId();
    }
}
