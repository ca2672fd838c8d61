package dev.panamaverbs.examples;

// @start region="imports"
import dev.panamaverbs.values.AccessFlag;
import dev.panamaverbs.MemoryRegion;
import dev.panamaverbs.QueuePair;
import dev.panamaverbs.cm.ConnectionOptions;
import dev.panamaverbs.cm.RdmaConnection;
import dev.panamaverbs.cm.RdmaListener;
import dev.panamaverbs.Completions;
import dev.panamaverbs.ReceiveWorkRequest;
import dev.panamaverbs.SendWorkRequest;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.EnumSet;
// @end

/**
 * The README's two-host example, also in verbs-core's javadoc overview: two processes connected by
 * rdma_cm exchange one SEND each way. {@code server ADDRESS PORT} listens and answers "pong";
 * {@code client ADDRESS PORT} connects and sends "ping". Each prints what it received. Every wait
 * is bounded. The README carries the imports and the class as they are here; verbs-core's javadoc
 * overview shows the two marked regions ({@code @start region}: javadoc's snippet markup) of this
 * very file, so the overview has no copy to keep in step.
 */
// @start region="class"
public final class TwoHostSendRecv {
    static final Duration WAIT = Duration.ofSeconds(60);
    static final long RECV = 1, SEND = 2;                     // wr_ids

    public static void main(String[] args) {                  // server|client ADDRESS PORT
        InetSocketAddress address = new InetSocketAddress(args[1], Integer.parseInt(args[2]));
        if (args[0].equals("server")) {
            try (RdmaListener listener = RdmaListener.listen(address, ConnectionOptions.defaults());
                 RdmaConnection connection = listener.accept(WAIT)) {
                System.out.println("server received: " + talk(connection, "pong", false));
            }
        } else {
            try (RdmaConnection connection = RdmaConnection.connect(address, ConnectionOptions.defaults())) {
                System.out.println("client received: " + talk(connection, "ping", true));
            }
        }
    }

    /** Posts a receive; sends text first (client) or once the peer's message is in (server). */
    static String talk(RdmaConnection connection, String text, boolean sendFirst) {
        QueuePair qp = connection.queuePair();                // RC and RTS: rdma_cm connected it
        MemoryRegion mr = connection.protectionDomain().allocateMemoryRegion(4096, EnumSet.of(AccessFlag.LOCAL_WRITE));
        qp.postReceive(ReceiveWorkRequest.allocate(1).wrId(RECV).sge(0, mr, 0, 2048));   // into bytes 0..2047
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        MemorySegment.copy(bytes, 0, mr.memory(), ValueLayout.JAVA_BYTE, 2048, bytes.length);
        SendWorkRequest send = SendWorkRequest.allocate(1).wrId(SEND).signaled(true).sge(0, mr, 2048, bytes.length);
        if (sendFirst) qp.postSend(send);                     // the opcode is SEND unless set
        Completions wc = Completions.allocate(4);
        int received = -1;                                    // the receive's length, once in
        boolean sent = false;
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (received < 0 || !sent) {                       // our receive's completion and our send's
            if (System.nanoTime() > deadline) throw new IllegalStateException("no completion within " + WAIT);
            for (int i = 0, n = connection.completionQueue().poll(wc); i < n; i++) {
                wc.throwIfFailed(i);                          // CompletionFailedException: status, wr_id
                if (wc.wrId(i) == SEND) { sent = true; continue; }
                received = wc.byteLength(i);
                if (!sendFirst) qp.postSend(send);            // the server answers
            }
        }
        return new String(mr.memory().asSlice(0, received).toArray(ValueLayout.JAVA_BYTE), StandardCharsets.UTF_8);
    }
}
// @end
