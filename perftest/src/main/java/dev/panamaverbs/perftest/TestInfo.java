package dev.panamaverbs.perftest;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;

/** perftest's test description block ({@code ctx_print_test_info}), with the fields these tools have. */
final class TestInfo {
    private TestInfo() {}

    /** Prints the block; {@code inlineSize} is the inline size the test uses. */
    static void print(PrintStream out, PerftestOptions o, TestResources res, int mtuBytes, int inlineSize) {
        out.print(text(o, res.deviceName(), mtuBytes, res.isEthernet(), res.gid().map(gid -> gid.index()).orElse(-1),
                inlineSize, res.local().outReads()));
    }

    /**
     * perftest's title: the verb ({@code testsStr}), the atomic type on the atomic tests, then
     * on the bandwidth tests "Bidirectional " with {@code -b} and "Post List " with {@code -l}
     * above 1, "BW " (else "Latency "), and "Test".
     */
    static String title(PerftestOptions o) {
        StringBuilder title = new StringBuilder(switch (o.test().verb()) {
            case WRITE -> "RDMA_Write ";
            case SEND -> "Send ";
            case READ -> "RDMA_Read ";
            case ATOMIC -> "Atomic " + o.atomicType().name() + " ";
        });
        if (o.test().isLatency()) {
            title.append("Latency ");
        } else {
            title.append(o.duplex() ? "Bidirectional " : "").append(o.postList() > 1 ? "Post List " : "").append("BW ");
        }
        return title.append("Test").toString();
    }

    /**
     * The block as perftest 4.5 prints it (its "PCIe relax order" and "ibv_wr* API" lines with
     * what the twin does, both OFF): TX depth on the client only, RX depth on a SEND
     * server only (both on either side with {@code -b}), the inline size for WRITE/SEND and the outstanding reads for READ/atomic;
     * {@code gidIndex} -1 for none.
     */
    static String text(PerftestOptions o, String deviceName, int mtuBytes, boolean ethernet, int gidIndex, int inlineSize,
                       int outReads) {
        StringWriter text = new StringWriter();
        PrintWriter out = new PrintWriter(text);
        out.print("---------------------------------------------------------------------------------------\n");
        out.printf("                    %s%n", title(o));
        if (o.events()) {
            // perftest's completion vector (eq_num): -X, 0 by default
            out.printf(" Test with events. Using %s_comp%d%n", deviceName, o.link().completionVector());
        }
        out.printf(" Dual-port       : OFF\t\tDevice         : %s%n", deviceName);
        out.printf(" Number of qps   : %d\t\tTransport type : IB%n", o.queuePairs());
        out.printf(" Connection type : %s\t\tUsing SRQ      : OFF%n", o.connection());
        // perftest 4.5 (6.06) prints these two; ours say what the twin does: no relaxed-ordering
        // registration (perftest's ON), ibv_post_send rather than the ibv_wr_* API (OFF on rxe too).
        out.print(" PCIe relax order: OFF\n");
        out.print(" ibv_wr* API     : OFF\n");
        if (!o.isServer() || o.duplex()) {
            out.printf(" TX depth        : %d%n", o.txDepth());
        }
        if (o.postList() > 1) {
            out.printf(" Post List       : %d%n", o.postList());
        }
        if (o.test().verb() == TestKind.Verb.SEND && (o.isServer() || o.duplex())) {
            out.printf(" RX depth        : %d%n", o.receiveDepth());
        }
        if (!o.test().isLatency()) {
            out.printf(" CQ Moderation   : %d%n", o.cqModeration());
        }
        out.printf(" Mtu             : %d[B]%n", mtuBytes);
        out.printf(" Link type       : %s%n", ethernet ? "Ethernet" : "IB");
        if (gidIndex >= 0) {
            out.printf(" GID index       : %d%n", gidIndex);
        }
        if (o.test().verb() == TestKind.Verb.READ || o.test().verb() == TestKind.Verb.ATOMIC) {
            out.printf(" Outstand reads  : %d%n", outReads);
        } else {
            out.printf(" Max inline data : %d[B]%n", inlineSize);
        }
        out.printf(" rdma_cm QPs\t : %s%n", o.rdmaCm() ? "ON" : "OFF");
        out.printf(" Data ex. method : %s%n", o.cmExchange() ? "rdma_cm" : "Ethernet");
        if (o.rdmaCm() && o.isServer()) {
            out.print("---------------------------------------------------------------------------------------\n");
            out.print(" Waiting for client rdma_cm QP to connect\n Please run the same command with the IB/RoCE interface IP\n");
        }
        out.print("---------------------------------------------------------------------------------------\n");
        out.flush();
        return text.toString();
    }
}
