package dev.panamaverbs.it.twohost;

import dev.panamaverbs.CompletionQueue;
import dev.panamaverbs.Context;
import dev.panamaverbs.ProtectionDomain;
import dev.panamaverbs.values.QueuePairType;
import dev.panamaverbs.QueuePair;
import dev.panamaverbs.QueuePairOptions;
import dev.panamaverbs.Verbs;
import dev.panamaverbs.onesided.OneSidedChannel;
import dev.panamaverbs.onesided.RemoteSlot;
import dev.panamaverbs.onesided.RemoteWindow;
import dev.panamaverbs.onesided.SignalSlot;
import dev.panamaverbs.onesided.Window;
import dev.panamaverbs.onesided.WindowDescriptor;
import dev.panamaverbs.it.support.PeerSide;
import dev.panamaverbs.testkit.TestDevice;
import java.time.Duration;
import java.util.HexFormat;

/**
 * Host B's side of {@link OneSidedTwoHostTest}: the producer. Exchanges window descriptors with
 * the test (as hex of their wire format), then per "run R N FENCE" does N putWithSignalAndCounter
 * into the test's ring, waiting for the test's credit before reusing an entry, and answers with
 * its counter once the counter reached N.
 */
public final class OneSidedPeer {
    static final int QUEUE_DEPTH = 64;
    static final Duration WAIT = Duration.ofSeconds(60);

    private OneSidedPeer() {}

    public static void main(String[] args) throws Exception {
        TestDevice device = PeerSide.device();
        try (Context context = Verbs.device(device.name()).orElseThrow().open()) {
            ProtectionDomain pd = context.allocateProtectionDomain();
            QueuePair qp = pd.createQueuePair(queuePairOptions(context.createCompletionQueue(2 * QUEUE_DEPTH)));
            try (PeerLink link = PeerLink.accept(device, qp, PeerLink.endpoint(qp, device, 0x00B1B1));
                 Window window = Window.allocate(pd, SignalRing.WINDOW_BYTES);
                 OneSidedChannel channel = OneSidedChannel.open(qp)) {
                System.out.println("OneSidedPeer on " + device + ": zero-based sink " + channel.sinkIsZeroBased());
                serve(link.control(), channel, window);
            }
        }
        System.out.println("OneSidedPeer: done");
    }

    static QueuePairOptions queuePairOptions(CompletionQueue cq) {
        return QueuePairOptions.builder(QueuePairType.RC, cq).maxSendWorkRequests(QUEUE_DEPTH).maxReceiveWorkRequests(1)
                .maxSendSge(1).maxReceiveSge(1).maxInlineData(64).build();
    }

    private static void serve(Control control, OneSidedChannel channel, Window window) throws Exception {
        RemoteWindow consumer = null;
        while (true) {
            String request = control.receive();
            System.out.println("OneSidedPeer: " + request);
            String[] words = request.split(" ");
            switch (words[0]) {
                case "window" -> {
                    consumer = RemoteWindow.open(WindowDescriptor.fromBytes(HexFormat.of().parseHex(words[1])));
                    control.send("window " + HexFormat.of().formatHex(window.descriptor().toBytes()));
                }
                case "run" -> {
                    long started = System.nanoTime();
                    try {
                        long counter = produce(channel, window, consumer, Integer.parseInt(words[1]),
                                Integer.parseInt(words[2]), words[3].equals("1"));
                        control.send("done " + counter + " " + (System.nanoTime() - started) / 1_000_000);
                    } catch (RuntimeException | InterruptedException e) {
                        e.printStackTrace(System.out);
                        control.send("fail " + e);
                    }
                }
                case "quit" -> {
                    control.send("bye");
                    return;
                }
                default -> control.send("fail unknown request " + request);
            }
        }
    }

    private static long produce(OneSidedChannel channel, Window window, RemoteWindow consumer, int run, int ops,
            boolean fence) throws InterruptedException {
        RemoteSlot signal = consumer.slot(SignalRing.signalOffset(run));
        SignalSlot credit = window.slot(SignalRing.creditOffset(run));
        SignalSlot counter = window.slot(SignalRing.counterOffset(run));
        for (long i = 1; i <= ops; i++) {
            if (i > SignalRing.RING) {
                channel.waitSignal(credit, i - SignalRing.RING, WAIT);
            }
            SignalRing.fill(window.memory(), i);
            long at = SignalRing.entryOffset(i);
            channel.putWithSignalAndCounter(consumer, at, window, at, SignalRing.size(i), signal, 1, counter, fence);
        }
        return channel.waitCounter(counter, ops, WAIT);
    }
}
