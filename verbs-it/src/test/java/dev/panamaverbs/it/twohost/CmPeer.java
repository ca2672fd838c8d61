package dev.panamaverbs.it.twohost;

import dev.panamaverbs.Context;
import dev.panamaverbs.Verbs;
import dev.panamaverbs.testkit.DeviceCapability;
import dev.panamaverbs.values.AccessFlag;
import dev.panamaverbs.CompletionQueue;
import dev.panamaverbs.Completions;
import dev.panamaverbs.cm.ConnectionException;
import dev.panamaverbs.cm.ConnectionOptions;
import dev.panamaverbs.cm.ConnectionRequest;
import dev.panamaverbs.cm.RdmaDatagramSocket;
import dev.panamaverbs.MemoryRegion;
import dev.panamaverbs.QueuePair;
import dev.panamaverbs.cm.RdmaConnection;
import dev.panamaverbs.cm.RdmaListener;
import dev.panamaverbs.ReceiveWorkRequest;
import dev.panamaverbs.SendWorkRequest;
import dev.panamaverbs.testkit.CompletionWaiter;
import dev.panamaverbs.it.support.PeerSide;
import dev.panamaverbs.testkit.RegisteredBuffer;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.EnumSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Host B's side of {@link RdmaCmTwoHostTest}: an rdma_cm server on B's link address. It listens
 * for RC connections (port published as "rc-port") and binds a UD endpoint (RDMA_PS_UDP, "ud-port"),
 * then serves each connection request by the word in its private data:
 * <ul>
 * <li>{@code data}: accept; fill {@link #READ_AT} with pattern {@link #READ_SEED} and set the
 *     word at {@link #WORD_AT} to {@link #WORD_START}; SEND the client a note (iova, rkey, size of
 *     the region); on the client's SEND, check that its RDMA WRITE of pattern {@link #WRITE_SEED}
 *     landed at 0 and answer "ok" (or what was wrong) by SEND; then wait for the disconnect;</li>
 * <li>{@code reject}: reject, with {@link #REJECT_REASON} as private data;</li>
 * <li>{@code hold}: accept and wait (the test kills this peer meanwhile).</li>
 * </ul>
 * It serves until it is killed (the test's last step, or the end of the test class).
 * The first datagram on the UD endpoint is published as "datagram" (its text after the GRH).
 */
public final class CmPeer {
    static final int SIZE = 64 * 1024;
    static final int WRITE_LENGTH = 8000, WRITE_SEED = 21;
    static final int READ_AT = 16384, READ_LENGTH = 8000, READ_SEED = 22;
    static final int WORD_AT = 32768;
    static final long WORD_START = 100;
    static final int NOTE_AT = 40960, NOTE_LENGTH = 16;
    static final int REQUEST_AT = 49152, REPLY_AT = 53248, MESSAGE_LENGTH = 64;
    static final byte[] REJECT_REASON = "host B is full".getBytes(StandardCharsets.US_ASCII);
    static final int GRH = 40;
    static final Duration WAIT = Duration.ofSeconds(120);
    /** Well inside the agent's 120 s for publishing the port. */
    private static final Duration WARM_UP_WAIT = Duration.ofSeconds(30);

    private CmPeer() {}

    public static void main(String[] args) throws Exception {
        InetSocketAddress any = new InetSocketAddress(PeerSide.localAddress(), 0);
        boolean ud;
        try (Context context = Verbs.device(PeerSide.device().name()).orElseThrow().open()) {
            ud = DeviceCapability.UD.isSupportedBy(context); // iWARP (siw) has no UD: no datagram side, "ud-port" 0
        }
        try (RdmaListener listener = RdmaListener.listen(any, ConnectionOptions.defaults());
             RdmaDatagramSocket datagrams = ud ? RdmaDatagramSocket.bind(any, ConnectionOptions.defaults()) : null) {
            if (datagrams != null) {
                Thread.ofVirtual().name("ud").start(() -> receiveOneDatagram(datagrams));
            }
            warmUp(listener);
            PeerSide.publish("rc-port", listener.localAddress().getPort());
            PeerSide.publish("ud-port", datagrams == null ? 0 : datagrams.localAddress().getPort());
            System.out.println("CmPeer: listening at " + listener.localAddress() + ", UD at "
                    + (datagrams == null ? "(none: capability UD missing)" : datagrams.localAddress()));
            while (true) {
                ConnectionRequest request = listener.awaitRequest(Duration.ofSeconds(600))
                        .orElseThrow(() -> new IllegalStateException("no connection request for 600 s"));
                String word = word(request.privateData());
                System.out.println("CmPeer: request '" + word + "' from " + request.remoteAddress());
                long start = System.nanoTime();
                try {
                    switch (word) {
                        case "data" -> serveData(request);
                        case "reject" -> request.reject(REJECT_REASON);
                        case "hold" -> hold(request);
                        default -> request.reject(("unknown " + word).getBytes(StandardCharsets.US_ASCII));
                    }
                } catch (ConnectionException failed) {
                    // One lost connection (siw: A gives up when B has not answered within 10 s) fails that test
                    // on host A; the listener keeps serving the class's next tests.
                    System.out.println("CmPeer: serving '" + word + "' failed after " + (System.nanoTime() - start) / 1_000_000
                            + " ms: " + failed.getMessage());
                }
            }
        }
    }

    /**
     * One connection to its own listener, accepted, a 64 KiB registration on it, all closed, before
     * the port is published: the accept path's first run (class loading, the interpreter) then
     * happens here, not on host A's first request, which siw gives 10 s (its MPA reply timer).
     * Best effort: a failure is printed, the listener serves all the same.
     */
    private static void warmUp(RdmaListener listener) {
        long start = System.nanoTime();
        try (ExecutorService thread = Executors.newVirtualThreadPerTaskExecutor()) {
            Future<RdmaConnection> client = thread.submit(() -> RdmaConnection.connect(listener.localAddress(),
                    ConnectionOptions.builder().privateData("warm".getBytes(StandardCharsets.US_ASCII)).build()));
            ConnectionRequest request = listener.awaitRequest(WARM_UP_WAIT)
                    .orElseThrow(() -> new IllegalStateException("no warm-up request within " + WARM_UP_WAIT));
            try (RdmaConnection accepted = request.accept(ConnectionOptions.defaults());
                 RdmaConnection connected = client.get(WARM_UP_WAIT.toSeconds(), TimeUnit.SECONDS);
                 RegisteredBuffer buffer = RegisteredBuffer.allocate(accepted.protectionDomain(), SIZE)) {
                buffer.putLong(WORD_AT, WORD_START);
                // Not waited for: on an IB CM the DREQ's DREP comes only once the accepting side
                // disconnects too, at its close below, so a wait here outlasted the CM's DREQ retries
                // (80-104 s on rxe in the VMs, against the 120 s the port must be published in).
                connected.disconnect(Duration.ZERO);
            }
            System.out.println("CmPeer: warm-up connection to itself took " + (System.nanoTime() - start) / 1_000_000 + " ms");
        } catch (Exception | AssertionError e) {
            System.out.println("CmPeer: warm-up failed after " + (System.nanoTime() - start) / 1_000_000 + " ms: " + e);
        }
    }

    /** The ASCII word at the start of rdma_cm's zero-padded private data. */
    static String word(byte[] privateData) {
        int end = 0;
        while (end < privateData.length && privateData[end] != 0) {
            end++;
        }
        return new String(privateData, 0, end, StandardCharsets.US_ASCII);
    }

    private static void serveData(ConnectionRequest request) {
        try (RdmaConnection connection = request.accept(ConnectionOptions.defaults())) {
            QueuePair qp = connection.queuePair();
            CompletionQueue cq = connection.completionQueue();
            RegisteredBuffer buffer = RegisteredBuffer.allocate(connection.protectionDomain(), SIZE);
            Completions wc = Completions.allocate(2);
            buffer.fillPattern(READ_SEED, READ_AT, READ_LENGTH);
            buffer.putLong(WORD_AT, WORD_START);
            qp.postReceive(ReceiveWorkRequest.allocate(1).wrId(1).sge(0, buffer.region(), REQUEST_AT, MESSAGE_LENGTH));
            MemorySegment note = buffer.memory().asSlice(NOTE_AT, NOTE_LENGTH);
            note.set(ValueLayout.JAVA_LONG, 0, buffer.region().iova());
            note.set(ValueLayout.JAVA_INT, 8, buffer.region().rkey());
            note.set(ValueLayout.JAVA_INT, 12, SIZE);
            qp.postSend(SendWorkRequest.allocate(1).wrId(2).signaled(true).sge(buffer.region(), NOTE_AT, NOTE_LENGTH));
            CompletionWaiter.awaitSuccess(cq, wc);
            CompletionWaiter.awaitSuccess(cq, wc); // the client's SEND: its WRITE came before it
            String reply;
            try {
                buffer.assertPattern(WRITE_SEED, 0, WRITE_LENGTH);
                reply = "ok";
            } catch (AssertionError e) {
                reply = "bad: " + e.getMessage();
            }
            System.out.println("CmPeer: the client's RDMA WRITE: " + reply);
            byte[] text = reply.getBytes(StandardCharsets.US_ASCII);
            int length = Math.min(text.length, MESSAGE_LENGTH);
            buffer.memory().asSlice(REPLY_AT, length).copyFrom(MemorySegment.ofArray(text).asSlice(0, length));
            qp.postSend(SendWorkRequest.allocate(1).wrId(3).signaled(true).sge(buffer.region(), REPLY_AT, length));
            CompletionWaiter.awaitSuccess(cq, wc);
            System.out.println("CmPeer: disconnect seen: " + connection.awaitDisconnect(WAIT) + ", word now "
                    + buffer.getLong(WORD_AT));
            buffer.close();
        }
    }

    private static void hold(ConnectionRequest request) {
        try (RdmaConnection connection = request.accept(ConnectionOptions.defaults())) {
            System.out.println("CmPeer: holding " + connection + " until killed");
            connection.awaitDisconnect(Duration.ofSeconds(600));
        }
    }

    private static void receiveOneDatagram(RdmaDatagramSocket datagrams) {
        try (MemoryRegion inbox = datagrams.protectionDomain().allocateMemoryRegion(4096, EnumSet.of(AccessFlag.LOCAL_WRITE))) {
            datagrams.queuePair().postReceive(ReceiveWorkRequest.allocate(1).wrId(9).sge(0, inbox, 0, GRH + 256));
            byte[] hello = datagrams.answerResolution(WAIT).orElseThrow(() -> new IllegalStateException("no UD resolution")).privateData();
            System.out.println("CmPeer: UD resolution from a client saying '" + word(hello) + "'");
            Completions wc = Completions.allocate(1);
            CompletionWaiter.awaitSuccess(datagrams.completionQueue(), wc);
            int length = wc.byteLength(0) - GRH;
            byte[] payload = inbox.memory().asSlice(GRH, length).toArray(ValueLayout.JAVA_BYTE);
            PeerSide.publish("datagram", new String(payload, StandardCharsets.US_ASCII) + " (from QP " + wc.sourceQp(0) + ")");
        } catch (RuntimeException | AssertionError e) {
            System.out.println("CmPeer: UD side failed: " + e);
            PeerSide.publish("datagram", "failed: " + e.toString().replace('\n', ' '));
        }
    }
}
