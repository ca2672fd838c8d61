package dev.panamaverbs.it.twohost;

import dev.panamaverbs.cm.ConnectionEventChannel;
import dev.panamaverbs.cm.ConnectionId;
import dev.panamaverbs.cm.ConnectionOptions;
import dev.panamaverbs.cm.PortSpace;
import dev.panamaverbs.it.support.PeerSide;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Host B's side of {@link ScaleTwoHostTest}: a client process that opens {@code count} RC
 * connections through rdma_cm to host A's server, up to {@link #CONNECTING} at a time (the
 * identifiers share one event channel, which hands each its own events), and answers each
 * request with its reply on a virtual thread per connection that waits through the poller.
 * Arguments: server address, port, count, messages per connection (0: until killed), and the
 * word sent as private data ({@code load} or {@code victim}). Publishes "connected" (with the
 * set-up time in ms), then "verified" (messages checked) once every connection has answered all,
 * and exits 0; any wrong message or failed completion exits non-zero.
 */
public final class ScalePeer {
    static final Duration WAIT = Duration.ofSeconds(120);
    /** Connections being set up at once: address, route, queue pair and connect of one overlap another's round trips. */
    static final int CONNECTING = 8;
    /**
     * How long a connection waits for the server's next request, per connection of the process:
     * host A accepts them all before any goes past the middle, so the first one waits through
     * the set-up of every other (seconds each under TCG).
     */
    static final Duration REQUEST_WAIT_PER_CONNECTION = Duration.ofSeconds(10);

    private ScalePeer() {}

    public static void main(String[] args) throws Exception {
        InetSocketAddress server = new InetSocketAddress(InetAddress.getByName(args[0]), Integer.parseInt(args[1]));
        int count = Integer.parseInt(args[2]);
        int messages = Integer.parseInt(args[3]);
        ConnectionOptions options = ConnectionOptions.builder().privateData(args[4].getBytes(StandardCharsets.US_ASCII)).build();
        List<ScaleLink> links = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        AtomicLong verified = new AtomicLong();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Duration requestWait = Duration.ofMinutes(10).plus(REQUEST_WAIT_PER_CONNECTION.multipliedBy(count));
        Semaphore connecting = new Semaphore(CONNECTING);
        CountDownLatch connected = new CountDownLatch(count);
        try (ConnectionEventChannel events = ConnectionEventChannel.create()) {
            long start = System.nanoTime();
            for (int k = 0; k < count; k++) {
                int index = k;
                connecting.acquire();
                threads.add(Thread.ofVirtual().name("answer-" + k).start(() -> {
                    try {
                        ScaleLink link;
                        try {
                            link = connect(events, index, server, options, links);
                        } finally {
                            connecting.release();
                            connected.countDown();
                        }
                        answer(link, messages, requestWait, verified);
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    }
                }));
            }
            connected.await();
            if (failure.get() != null) {
                throw new AssertionError("a connection failed", failure.get());
            }
            long millis = (System.nanoTime() - start) / 1_000_000;
            System.out.println(count + " connections to " + server + " in " + millis + " ms");
            PeerSide.publish("connected", millis);
            for (Thread thread : threads) {
                thread.join();
            }
            if (failure.get() != null) {
                throw new AssertionError("a connection failed", failure.get());
            }
            PeerSide.publish("verified", verified.get());
        } finally {
            synchronized (links) {
                links.forEach(ScaleLink::close);
            }
        }
    }

    /** Resolves, creates the connection's resources (added to {@code links} for the close) and connects. */
    private static ScaleLink connect(ConnectionEventChannel events, int index, InetSocketAddress server, ConnectionOptions options,
                                     List<ScaleLink> links) {
        ConnectionId id = events.createIdentifier(PortSpace.TCP);
        id.resolveAddress(server, WAIT);
        id.resolveRoute(WAIT);
        ScaleLink link = ScaleLink.create(index, id);
        synchronized (links) {
            links.add(link);
        }
        link.postReceive();
        id.connect(options, WAIT);
        return link;
    }

    /** For each request: check it, post the next receive, send the reply. {@code messages} 0: until the process dies. */
    private static void answer(ScaleLink link, int messages, Duration requestWait, AtomicLong verified) throws InterruptedException {
        for (int seq = 1; messages == 0 || seq <= messages; seq++) {
            link.await(1, requestWait, () -> { });
            int serverIndex = link.receivedIndex();
            String wrong = link.checkReceived(serverIndex, seq, ScaleLink.REQUEST);
            if (wrong != null) {
                throw new AssertionError(wrong);
            }
            verified.incrementAndGet();
            link.postReceive();
            link.send(serverIndex, seq, ScaleLink.REPLY);
            link.await(1, WAIT, () -> { });
        }
    }
}
