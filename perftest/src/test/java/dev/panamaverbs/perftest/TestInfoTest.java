package dev.panamaverbs.perftest;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The test description block's lines and their placement, as perftest 4.5 prints them. */
class TestInfoTest {
    private static String info(String... args) {
        return TestInfo.text(PerftestOptions.parse(args), "rxe0", 1024, true, 1, 0, 16);
    }

    @Test
    void txDepthOnTheClientOnlyRxDepthOnASendServerOnly() {
        String client = info("send_bw", "host");
        assertTrue(client.contains(" TX depth        : 128\n"), client);
        assertFalse(client.contains("RX depth"), client);
        String server = info("send_bw");
        assertFalse(server.contains("TX depth"), server);
        assertTrue(server.contains(" RX depth        : 512\n"), server);
        assertFalse(info("write_bw").contains("RX depth"));
    }

    @Test
    void inlineForWriteAndSendOutstandingReadsForReadAndAtomic() {
        assertTrue(info("write_lat", "host").contains(" Max inline data : 0[B]\n"));
        String read = info("read_bw", "host");
        assertTrue(read.contains(" Outstand reads  : 16\n"), read);
        assertFalse(read.contains("Max inline"), read);
        assertTrue(info("atomic_lat", "host").contains(" Outstand reads  : 16\n"));
    }

    @Test
    void cqModerationAsForced() {
        assertTrue(info("write_bw", "host").contains(" CQ Moderation   : 1\n"), "65536 bytes: forced to 1");
        assertTrue(info("write_bw", "-s", "4096", "host").contains(" CQ Moderation   : 100\n"));
        assertFalse(info("write_lat", "host").contains("CQ Moderation"));
    }

    @Test
    void linesInPerftestsOrder() {
        String client = info("write_bw", "host");
        String[] order = {" Connection type : RC\t\tUsing SRQ      : OFF\n", " PCIe relax order: OFF\n", " ibv_wr* API     : OFF\n",
            " TX depth        : 128\n", " CQ Moderation   : 1\n", " Mtu             : 1024[B]\n", " Link type       : Ethernet\n",
            " GID index       : 1\n", " Max inline data : 0[B]\n", " rdma_cm QPs\t : OFF\n", " Data ex. method : Ethernet\n"};
        int at = 0;
        for (String line : order) {
            int found = client.indexOf(line, at);
            assertTrue(found >= at, "'" + line.strip() + "' in order in:\n" + client);
            at = found + line.length();
        }
    }

    @Test
    void eventsLineAfterTheTitleAndRxDepthAsGiven() {
        String events = info("send_lat", "-e", "-r", "64");
        assertTrue(events.contains("                    Send Latency Test\n Test with events. Using rxe0_comp0\n"), events);
        assertTrue(events.contains(" RX depth        : 64\n"), events);
        assertFalse(info("send_lat").contains("Test with events"));
    }

    @Test
    void bidirectionalTitleAndDepthsOnBothSides() {
        String server = info("write_bw", "-b");
        assertTrue(server.contains("                    RDMA_Write Bidirectional BW Test\n"), server);
        assertTrue(server.contains(" TX depth        : 128\n"), "-b: the server sends too");
        assertTrue(info("atomic_bw", "-b", "host").contains("                    Atomic FETCH_AND_ADD Bidirectional BW Test\n"));
        assertTrue(info("write_bw", "-l", "4", "host").contains("                    RDMA_Write Post List BW Test\n"));
    }

    @Test
    void rdmaCmExchangeLines() {
        String z = info("write_bw", "-z", "host");
        assertTrue(z.contains(" rdma_cm QPs\t : OFF\n Data ex. method : rdma_cm\n"), z);
        String r = info("write_bw", "-R", "host");
        assertTrue(r.contains(" rdma_cm QPs\t : ON\n Data ex. method : rdma_cm\n"), r);
    }

    @Test
    void atomicTitleNamesTheAtomicType() {
        assertTrue(info("atomic_bw").contains("                    Atomic FETCH_AND_ADD BW Test\n"));
        assertTrue(info("atomic_bw", "-A", "CMP_AND_SWAP").contains("                    Atomic CMP_AND_SWAP BW Test\n"));
        assertTrue(info("atomic_lat", "-A", "CMP_AND_SWAP").contains("                    Atomic CMP_AND_SWAP Latency Test\n"));
    }
}
