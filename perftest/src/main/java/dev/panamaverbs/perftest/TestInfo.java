package dev.panamaverbs.perftest;

import java.io.PrintStream;

/** perftest's test description block ({@code ctx_print_test_info}), with the fields these tools have. */
final class TestInfo {
    private TestInfo() {}

    static void print(PrintStream out, PerftestOptions o, TestResources res, int mtuBytes) {
        String title = switch (o.test()) {
            case WRITE_LAT -> "RDMA_Write Latency Test";
            case SEND_LAT -> "Send Latency Test";
            case READ_LAT -> "RDMA_Read Latency Test";
            case ATOMIC_LAT -> "Atomic FETCH_AND_ADD Latency Test";
            case WRITE_BW -> "RDMA_Write BW Test";
            case SEND_BW -> "Send BW Test";
            case READ_BW -> "RDMA_Read BW Test";
            case ATOMIC_BW -> "Atomic FETCH_AND_ADD BW Test";
        };
        out.print("---------------------------------------------------------------------------------------\n");
        out.printf("                    %s%n", title);
        out.printf(" Dual-port       : OFF\t\tDevice         : %s%n", res.deviceName());
        out.printf(" Number of qps   : 1\t\tTransport type : IB%n");
        out.printf(" Connection type : %s\t\tUsing SRQ      : OFF%n", o.connection());
        out.printf(" TX depth        : %d%n", o.txDepth());
        if (o.postList() > 1) {
            out.printf(" Post List       : %d%n", o.postList());
        }
        if (o.test().verb() == TestKind.Verb.SEND) {
            out.printf(" RX depth        : %d%n", Session.receiveDepth(o));
        }
        if (!o.test().isLatency()) {
            out.printf(" CQ Moderation   : %d%n", o.cqModeration());
        }
        out.printf(" Mtu             : %d[B]%n", mtuBytes);
        out.printf(" Link type       : %s%n", res.isEthernet() ? "Ethernet" : "IB");
        res.gid().ifPresent(gid -> out.printf(" GID index       : %d%n", gid.index()));
        out.printf(" Max inline data : %d[B]%n", res.maxInline());
        out.printf(" rdma_cm QPs\t : %s%n", o.rdmaCm() ? "ON" : "OFF");
        out.printf(" Data ex. method : %s%n", o.rdmaCm() ? "rdma_cm" : "Ethernet");
        if (o.rdmaCm() && o.isServer()) {
            out.print("---------------------------------------------------------------------------------------\n");
            out.print(" Waiting for client rdma_cm QP to connect\n Please run the same command with the IB/RoCE interface IP\n");
        }
        out.print("---------------------------------------------------------------------------------------\n");
    }
}
