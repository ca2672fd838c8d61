package dev.panamaverbs.it.twohost;

import dev.panamaverbs.values.CompletionOpcode;
import dev.panamaverbs.CompletionQueue;
import dev.panamaverbs.Completions;
import dev.panamaverbs.Context;
import dev.panamaverbs.cm.EndpointExchange;
import dev.panamaverbs.cm.EndpointInfo;
import dev.panamaverbs.values.GidEntry;
import dev.panamaverbs.ProtectionDomain;
import dev.panamaverbs.values.QueuePairType;
import dev.panamaverbs.QueuePair;
import dev.panamaverbs.QueuePairOptions;
import dev.panamaverbs.ReceiveWorkRequest;
import dev.panamaverbs.SendWorkRequest;
import dev.panamaverbs.Verbs;
import dev.panamaverbs.values.WorkRequestOpcode;
import dev.panamaverbs.testkit.CompletionWaiter;
import dev.panamaverbs.it.support.PeerSide;
import dev.panamaverbs.testkit.RegisteredBuffer;
import dev.panamaverbs.testkit.TestDevice;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;

/**
 * Host B's side of {@link RcTwoHostTest}: an RC queue pair on rxe1 and a 64 KiB region, connected
 * to the test's through the endpoint exchange over the test's own TCP connection, then serving
 * the test's requests on that connection until "quit": post a receive and check what arrives,
 * check or fill a range of its region, set or read a 64-bit word, send to the test.
 */
public final class RcPeer {
    static final int BUFFER_SIZE = 64 * 1024;
    static final int PSN = 0x00B0B0;
    /** Where "send" takes its bytes from in the peer's region. */
    static final int SEND_OFFSET = 32 * 1024;
    static final int TIMEOUT_MILLIS = 120_000;

    private RcPeer() {}

    public static void main(String[] args) throws Exception {
        TestDevice device = PeerSide.device();
        System.out.println("RcPeer on " + device + " at " + PeerSide.localAddress().getHostAddress());
        try (Context context = Verbs.device(device.name()).orElseThrow().open();
             ServerSocket server = new ServerSocket(0, 1, PeerSide.localAddress())) {
            ProtectionDomain pd = context.allocateProtectionDomain();
            CompletionQueue cq = context.createCompletionQueue(64);
            QueuePair qp = pd.createQueuePair(QueuePairOptions.builder(QueuePairType.RC, cq)
                    .maxSendWorkRequests(16).maxReceiveWorkRequests(16).maxSendSge(1).maxReceiveSge(1).build());
            RegisteredBuffer buffer = RegisteredBuffer.allocate(pd, BUFFER_SIZE);
            GidEntry gid = context.queryGid(device.port(), device.gidIndex()).orElseThrow();
            EndpointInfo mine = EndpointInfo.of(qp, PSN, gid.gid(), context.queryPort(device.port()).activeMtu())
                    .withRegion(buffer.region());

            server.setSoTimeout(TIMEOUT_MILLIS);
            PeerSide.publish("port", server.getLocalPort());
            try (Socket socket = server.accept()) {
                EndpointInfo theirs = EndpointExchange.exchange(socket, mine, Duration.ofSeconds(60));
                System.out.println("RcPeer: mine " + mine + ", theirs " + theirs);
                RcConnection.connect(qp, device, mine, theirs);
                Control control = new Control(socket, TIMEOUT_MILLIS);
                control.send("rts");
                serve(control, qp, cq, buffer);
            }
            buffer.close();
        }
        System.out.println("RcPeer: done");
    }

    private static void serve(Control control, QueuePair qp, CompletionQueue cq, RegisteredBuffer buffer) throws Exception {
        Completions wc = Completions.allocate(4);
        while (true) {
            String request = control.receive();
            System.out.println("RcPeer: " + request);
            String[] words = request.split(" ");
            long[] n = new long[words.length];
            for (int i = 1; i < words.length; i++) {
                n[i] = Long.parseLong(words[i]);
            }
            try {
                switch (words[0]) {
                    case "recv" -> { // recv LEN SEED: a SEND of LEN bytes of pattern SEED lands at 0
                        qp.postReceive(ReceiveWorkRequest.allocate(1).wrId(1).sge(0, buffer.region(), 0, (int) n[1]));
                        control.send("posted");
                        CompletionWaiter.awaitSuccess(cq, wc);
                        expect(wc.opcode(0) == CompletionOpcode.RECV && wc.byteLength(0) == n[1],
                                "completion " + wc.opcode(0) + " of " + wc.byteLength(0) + " bytes");
                        buffer.assertPattern(n[2], 0, n[1]);
                        control.send("ok");
                    }
                    case "recv-imm" -> { // recv-imm OFF LEN SEED IMM: a WRITE_WITH_IMM of LEN bytes at OFF
                        qp.postReceive(ReceiveWorkRequest.allocate(1).wrId(2).sge(0, buffer.region(), 0, 8));
                        control.send("posted");
                        CompletionWaiter.awaitSuccess(cq, wc);
                        expect(wc.opcode(0) == CompletionOpcode.RECV_RDMA_WITH_IMM && wc.immediateData(0) == (int) n[4]
                                && wc.byteLength(0) == n[2], "completion " + wc.opcode(0) + " imm 0x"
                                + Integer.toHexString(wc.immediateData(0)) + " of " + wc.byteLength(0) + " bytes");
                        buffer.assertPattern(n[3], n[1], n[2]);
                        control.send("ok");
                    }
                    case "check" -> { // check OFF LEN SEED
                        buffer.assertPattern(n[3], n[1], n[2]);
                        control.send("ok");
                    }
                    case "fill" -> { // fill OFF LEN SEED
                        buffer.fillPattern(n[3], n[1], n[2]);
                        control.send("ok");
                    }
                    case "set-long" -> {
                        buffer.putLong(n[1], n[2]);
                        control.send("ok");
                    }
                    case "get-long" -> control.send(Long.toString(buffer.getLong(n[1])));
                    case "send" -> { // send LEN SEED: a SEND to the test from SEND_OFFSET
                        buffer.fillPattern(n[2], SEND_OFFSET, n[1]);
                        qp.postSend(SendWorkRequest.allocate(1).wrId(3).opcode(WorkRequestOpcode.SEND).signaled(true)
                                .sge(buffer.region(), SEND_OFFSET, (int) n[1]));
                        CompletionWaiter.awaitSuccess(cq, wc);
                        control.send("ok");
                    }
                    case "quit" -> {
                        control.send("bye");
                        return;
                    }
                    default -> control.send("fail: unknown request " + request);
                }
            } catch (AssertionError e) {
                System.out.println("RcPeer: " + request + " failed: " + e.getMessage());
                control.send("fail: " + e.getMessage());
            }
        }
    }

    private static void expect(boolean condition, String what) {
        if (!condition) {
            throw new AssertionError("unexpected " + what);
        }
    }
}
