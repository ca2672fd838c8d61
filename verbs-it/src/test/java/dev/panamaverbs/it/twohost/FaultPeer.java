package dev.panamaverbs.it.twohost;

import dev.panamaverbs.CompletionQueue;
import dev.panamaverbs.Context;
import dev.panamaverbs.cm.EndpointExchange;
import dev.panamaverbs.cm.EndpointInfo;
import dev.panamaverbs.values.GidEntry;
import dev.panamaverbs.ProtectionDomain;
import dev.panamaverbs.values.QueuePairType;
import dev.panamaverbs.QueuePair;
import dev.panamaverbs.QueuePairOptions;
import dev.panamaverbs.Verbs;
import dev.panamaverbs.it.support.KernelResources;
import dev.panamaverbs.it.support.PeerSide;
import dev.panamaverbs.testkit.RegisteredBuffer;
import dev.panamaverbs.testkit.TestDevice;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;

/**
 * Host B's side of {@link WireFaultTwoHostTest}: one region of {@link #SIZE} bytes, and for each
 * TCP connection the test opens (port published as "port") a fresh completion queue and RC queue
 * pair connected through the endpoint exchange. It then answers "check OFF LEN SEED" (is the
 * pattern there?) until "bye", or until the connection breaks (the test gave that queue pair up
 * after a fault): either way it destroys that queue pair and its queue, and waits for the next.
 * For {@link SoakTwoHostTest} it also keeps a UD queue pair ({@link SoakDatagrams}, its address
 * published as "ud") that checks every datagram arriving, and answers "ud-send FIRST COUNT QPN GID"
 * (datagrams to the test), "ud-stats" (received and wrong so far) and "counts" (B's
 * {@code rdma resource show} counts for the link device).
 */
public final class FaultPeer {
    static final int SIZE = 1 << 20;
    static final int PSN = 0x00C0C0;
    static final int CONTROL_TIMEOUT_MILLIS = 120_000;

    private FaultPeer() {}

    public static void main(String[] args) throws Exception {
        TestDevice device = PeerSide.device();
        try (Context context = Verbs.device(device.name()).orElseThrow().open();
             ServerSocket server = new ServerSocket(0, 4, PeerSide.localAddress())) {
            ProtectionDomain pd = context.allocateProtectionDomain();
            RegisteredBuffer buffer = RegisteredBuffer.allocate(pd, SIZE);
            GidEntry gid = context.queryGid(device.port(), device.gidIndex()).orElseThrow();
            SoakDatagrams datagrams = new SoakDatagrams(context, pd, device);
            Thread.ofVirtual().name("ud receiver").start(datagrams::receiveForever);
            server.setSoTimeout(600_000);
            PeerSide.publish("ud", datagrams.address());
            PeerSide.publish("port", server.getLocalPort());
            for (int connection = 1; ; connection++) {
                try (Socket socket = server.accept()) {
                    CompletionQueue cq = context.createCompletionQueue(64);
                    QueuePair qp = pd.createQueuePair(QueuePairOptions.builder(QueuePairType.RC, cq)
                            .maxSendWorkRequests(16).maxReceiveWorkRequests(16).maxSendSge(1).maxReceiveSge(1).build());
                    EndpointInfo mine = EndpointInfo.of(qp, PSN, gid.gid(), context.queryPort(device.port()).activeMtu())
                            .withRegion(buffer.region());
                    EndpointInfo theirs = EndpointExchange.exchange(socket, mine, Duration.ofSeconds(60));
                    RcConnection.connect(qp, device, mine, theirs);
                    System.out.println("FaultPeer: connection " + connection + ": QP " + qp.number() + " to " + theirs.qpn());
                    serve(new Control(socket, CONTROL_TIMEOUT_MILLIS), buffer, datagrams, device);
                    qp.close();
                    cq.close();
                    System.out.println("FaultPeer: connection " + connection + " closed");
                }
            }
        }
    }

    private static void serve(Control control, RegisteredBuffer buffer, SoakDatagrams datagrams, TestDevice device) {
        try {
            control.send("rts");
            while (true) {
                String[] words = control.receive().split(" ");
                switch (words[0]) {
                    case "check" -> {
                        try {
                            buffer.assertPattern(Long.parseLong(words[3]), Long.parseLong(words[1]), Long.parseLong(words[2]));
                            control.send("ok");
                        } catch (AssertionError e) {
                            control.send("fail: " + e.getMessage());
                        }
                    }
                    case "ud-send" -> {
                        datagrams.send(words[3] + " " + words[4], Long.parseLong(words[1]), Integer.parseInt(words[2]));
                        control.send("ok");
                    }
                    case "ud-stats" -> control.send(datagrams.received.get() + " " + datagrams.wrong.get());
                    case "counts" -> control.send(KernelResources.count(device.name()).toString());
                    case "bye" -> {
                        control.send("bye");
                        return;
                    }
                    default -> control.send("fail: unknown request " + String.join(" ", words));
                }
            }
        } catch (IOException e) {
            System.out.println("FaultPeer: the test's connection ended: " + e);
        }
    }
}
