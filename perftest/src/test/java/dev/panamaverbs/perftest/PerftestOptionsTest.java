package dev.panamaverbs.perftest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panamaverbs.perftest.PerftestOptions.Connection;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** perftest's option names, defaults and refusals for the common subset. */
class PerftestOptionsTest {
    @Test
    void latencyDefaultsAsPerftest() {
        PerftestOptions o = PerftestOptions.parse("write_lat");
        assertTrue(o.isServer());
        assertNull(o.server());
        assertEquals(18515, o.port());
        assertEquals(2, o.size());
        assertEquals(1000, o.iterations());
        assertEquals(1, o.txDepth());
        assertEquals(Connection.RC, o.connection());
        assertEquals(PerftestOptions.AUTO_GID, o.gidIndex());
        assertEquals(Duration.ofSeconds(60), o.timeout());
    }

    @Test
    void bandwidthDefaultsAsPerftest() {
        PerftestOptions o = PerftestOptions.parse("ib_send_bw", "10.0.0.2");
        assertFalse(o.isServer());
        assertEquals("10.0.0.2", o.server());
        assertEquals(65536, o.size());
        assertEquals(1000, o.iterations());
        assertEquals(128, o.txDepth());
        assertEquals(1, o.cqModeration(), "65536 bytes: over 8 KiB, perftest forces 1");
        assertEquals(100, PerftestOptions.parse("send_bw", "-s", "4096").cqModeration());
        assertEquals(8, PerftestOptions.parse("atomic_bw").size());
    }

    @Test
    void theCommonSubset() {
        PerftestOptions o = PerftestOptions.parse("write_bw", "-d", "rxe1", "-i", "1", "-x", "3", "-s", "4096", "-n", "200",
                "-t", "64", "-l", "1", "-Q", "10", "-c", "UC", "-m", "1024", "-F", "--report_gbits", "-p", "18600",
                "--timeout=30", "host");
        assertEquals("rxe1", o.device());
        assertEquals(3, o.gidIndex());
        assertEquals(4096, o.size());
        assertEquals(200, o.iterations());
        assertEquals(64, o.txDepth());
        assertEquals(10, o.cqModeration());
        assertEquals(Connection.UC, o.connection());
        assertEquals(1024, o.mtu());
        assertTrue(o.reportGbits());
        assertEquals(18600, o.port());
        assertEquals(Duration.ofSeconds(30), o.timeout());
        assertTrue(PerftestOptions.parse("send_lat", "-a").allSizes());
        assertEquals(5, PerftestOptions.parse("write_bw", "-D", "5").durationSeconds());
        assertTrue(PerftestOptions.parse("send_bw", "-R").rdmaCm());
    }

    @Test
    void refusalsAsPerftest() {
        assertThrows(IllegalArgumentException.class, () -> PerftestOptions.parse("write_lat", "-c", "UD"));
        assertThrows(IllegalArgumentException.class, () -> PerftestOptions.parse("read_bw", "-c", "UC"));
        assertThrows(IllegalArgumentException.class, () -> PerftestOptions.parse("atomic_lat", "-s", "16"));
        assertThrows(IllegalArgumentException.class, () -> PerftestOptions.parse("write_lat", "-m", "1000"));
        assertThrows(IllegalArgumentException.class, () -> PerftestOptions.parse("write_lat", "-n", "4"));
        assertThrows(IllegalArgumentException.class, () -> PerftestOptions.parse("write_lat", "-a", "-D", "3"));
        assertThrows(IllegalArgumentException.class, () -> PerftestOptions.parse("nope"));
        IllegalArgumentException uc = assertThrows(IllegalArgumentException.class,
                () -> PerftestOptions.parse("write_bw", "-R", "-c", "UC"));
        assertEquals("UC is not supported in librdmacm", uc.getMessage());
        // UD with -R runs (rdma_cm's UDP port space), as perftest's; UD is still SEND only
        assertEquals("UD connection only possible in SEND verb", refusal("write_bw", "-R", "-c", "UD"),
                "Debian's ib_write_bw -R -c UD prints this (change_conn_type)");
    }

    @Test
    void udWithRdmaCmAsPerftest() {
        for (String test : new String[] {"send_bw", "send_lat"}) {
            PerftestOptions ud = PerftestOptions.parse(test, "-R", "-c", "UD");
            assertEquals(PerftestOptions.Connection.UD, ud.connection(), test);
            assertTrue(ud.rdmaCm() && ud.cmExchange(), test);
        }
        assertEquals(2, PerftestOptions.parse("send_bw", "-R", "-c", "UD", "-q", "2", "-b").queuePairs(),
                "UD, -q and -b with -R: perftest refuses none of them");
        // the Q_Key UD sends name: rdma_cm's for its UDP port space with -R, perftest's DEF_QKEY without
        assertEquals(0x01234567, TestResources.remoteQkey(PerftestOptions.parse("send_lat", "-R", "-c", "UD")));
        assertEquals(0x11111111, TestResources.remoteQkey(PerftestOptions.parse("send_lat", "-c", "UD")));
    }

    @Test
    void postListAsPerftest() {
        PerftestOptions o = PerftestOptions.parse("write_bw", "-l", "4", "-n", "1000");
        assertEquals(4, o.postList());
        assertEquals(4, o.cqModeration(), "Post List requested - CQ moderation will be the size of the post list");
        assertEquals(2, PerftestOptions.parse("send_bw", "-l", "8", "-Q", "2").cqModeration(), "-Q given and dividing the list");
        assertEquals(4, PerftestOptions.parse("write_bw", "-l", "4", "-D", "3").postList(), "duration mode: no multiple needed");
        assertEquals("Post list is supported in BW tests only",
                assertThrows(IllegalArgumentException.class, () -> PerftestOptions.parse("write_lat", "-l", "4")).getMessage());
        assertEquals("Number of iterations must be a multiple of post list size",
                assertThrows(IllegalArgumentException.class, () -> PerftestOptions.parse("write_bw", "-l", "3", "-n", "1000"))
                        .getMessage());
        assertEquals("Number of iterations must be a multiple of post list size",
                assertThrows(IllegalArgumentException.class,
                        () -> PerftestOptions.parse("write_bw", "-l", "4", "-n", "1000", "--sizes=2,64:30")).getMessage());
        assertEquals("Post list size must be a multiple of CQ moderation",
                assertThrows(IllegalArgumentException.class, () -> PerftestOptions.parse("write_bw", "-l", "4", "-Q", "3"))
                        .getMessage());
        IllegalArgumentException deep = assertThrows(IllegalArgumentException.class,
                () -> PerftestOptions.parse("write_bw", "-l", "64", "-t", "32", "-n", "6400"));
        assertTrue(deep.getMessage().contains("no list would ever fit the send queue"), deep.getMessage());
    }

    @Test
    void sizesMakeOneRunPerSizeOnConsecutivePorts() {
        PerftestOptions o = PerftestOptions.parse("write_bw", "-n", "1000", "-p", "18700", "--sizes=2,64:300,65536:10", "host");
        assertEquals(3, o.series().size());
        PerftestOptions first = o.seriesRun(0);
        assertEquals(2, first.size());
        assertEquals(1000, first.iterations());
        assertEquals(18700, first.port());
        assertTrue(first.series().isEmpty());
        PerftestOptions last = o.seriesRun(2);
        assertEquals(65536, last.size());
        assertEquals(10, last.iterations());
        assertEquals(18702, last.port());
        assertEquals(10, last.txDepth(), "the tx depth is cut to the run's iterations, as perftest cuts it to -n");
        assertEquals(1, last.cqModeration(), "65536 bytes: over 8 KiB perftest forces 1");
        assertEquals(100, first.cqModeration());
        assertEquals(4, PerftestOptions.parse("write_bw", "-Q", "4", "--sizes=65536").seriesRun(0).cqModeration(), "-Q given");
        assertEquals(128, o.seriesRun(1).txDepth());
    }

    @Test
    void atomicSizesRepeatTheirOneSize() {
        PerftestOptions o = PerftestOptions.parse("atomic_lat", "-p", "18700", "--sizes=8:10000,8", "host");
        assertEquals(2, o.series().size());
        assertEquals(10_000, o.seriesRun(0).iterations());
        PerftestOptions measured = o.seriesRun(1);
        assertEquals(8, measured.size());
        assertEquals(1000, measured.iterations(), "-n's default");
        assertEquals(18701, measured.port());
    }

    @Test
    void sizesRefusals() {
        assertThrows(IllegalArgumentException.class, () -> PerftestOptions.parse("write_lat", "--sizes=2,x"));
        assertThrows(IllegalArgumentException.class, () -> PerftestOptions.parse("write_lat", "--sizes=2:4"));
        assertThrows(IllegalArgumentException.class, () -> PerftestOptions.parse("write_lat", "--sizes=2,,4"));
        assertThrows(IllegalArgumentException.class, () -> PerftestOptions.parse("write_lat", "--sizes=2:1:1"));
        assertThrows(IllegalArgumentException.class, () -> PerftestOptions.parse("write_lat", "-a", "--sizes=2,4"));
        assertEquals("Message size cannot be changed for Atomic tests",
                assertThrows(IllegalArgumentException.class, () -> PerftestOptions.parse("atomic_lat", "--sizes=8,64")).getMessage());
        assertEquals("Message size cannot be changed for Atomic tests",
                assertThrows(IllegalArgumentException.class, () -> PerftestOptions.parse("atomic_bw", "--sizes=16")).getMessage());
        assertThrows(IllegalArgumentException.class, () -> PerftestOptions.parse("write_lat", "-p", "65535", "--sizes=2,4"));
    }

    @Test
    void defaultIterationsArePerftests() {
        for (TestKind test : TestKind.values()) {
            int expected = test == TestKind.WRITE_BW ? 5000 : 1000;   // DEF_ITERS_WB for write_bw, else DEF_ITERS
            assertEquals(expected, PerftestOptions.parse(test.testName()).iterations(), test.testName());
        }
    }

    @Test
    void depthsAsPerftest() {
        assertEquals(1, PerftestOptions.parse("write_lat").txDepth());
        assertEquals(128, PerftestOptions.parse("send_bw").txDepth());
        assertEquals(50, PerftestOptions.parse("write_bw", "-n", "50").txDepth(), "cut to the iterations");
        assertEquals(128, PerftestOptions.parse("write_bw", "-n", "50", "-D", "2").txDepth(), "not in duration mode");
        assertEquals(512, PerftestOptions.parse("send_bw").receiveDepth(), "DEF_RX_SEND");
        assertEquals(512, PerftestOptions.parse("send_lat").receiveDepth());
        assertEquals(100, PerftestOptions.parse("send_bw", "-n", "100").receiveDepth(), "cut to the iterations");
        assertEquals(6, PerftestOptions.parse("send_bw", "-n", "5").receiveDepth(), "made even");
        assertEquals(1000, PerftestOptions.parse("send_bw", "-c", "UD").receiveDepth(), "UD: the iterations, up to UC_MAX_RX");
        assertEquals(16000, PerftestOptions.parse("send_bw", "-c", "UC", "-n", "20000").receiveDepth());
        assertEquals(1, PerftestOptions.parse("write_bw").receiveDepth());
    }

    @Test
    void rxDepthAsPerftest() {
        assertEquals(100, PerftestOptions.parse("send_bw", "-r", "100").receiveDepth());
        assertEquals(100, PerftestOptions.parse("send_bw", "--rx-depth=100").receiveDepth());
        assertEquals(8, PerftestOptions.parse("send_lat", "-r", "7").receiveDepth(), "an odd depth made even");
        assertEquals(7, PerftestOptions.parse("send_lat", "-r", "7", "-a").receiveDepth(), "not with -a");
        assertEquals(20, PerftestOptions.parse("send_bw", "-r", "4000", "-n", "20").receiveDepth(), "cut to the iterations");
        assertEquals(4000, PerftestOptions.parse("send_bw", "-r", "4000", "-D", "2").receiveDepth(), "not in duration mode");
        assertEquals(100, PerftestOptions.parse("send_bw", "-c", "UD", "-r", "100").receiveDepth(), "UD keeps a given depth");
        assertEquals(1000, PerftestOptions.parse("send_bw", "-c", "UD", "-r", "512").receiveDepth(),
                "UD: a depth of 512 (given or not) becomes the iterations");
        assertEquals(1, PerftestOptions.parse("write_bw", "-r", "1").receiveDepth(), "1 is accepted on the RDMA verbs");
        assertEquals("Rx depth should be between 1 and 16384", refusal("send_bw", "-r", "0"));
        assertEquals("Rx depth should be between 1 and 16384", refusal("send_bw", "-r", "16385"));
        for (String test : new String[] {"write_bw", "write_lat", "read_bw", "read_lat", "atomic_bw", "atomic_lat"}) {
            assertEquals("On RDMA verbs rx depth can be only 1", refusal(test, "-r", "2"), test);
        }
    }

    @Test
    void eventsAsPerftest() {
        assertFalse(PerftestOptions.parse("send_bw").events());
        for (String test : new String[] {"send_bw", "send_lat", "read_bw", "read_lat", "atomic_bw", "atomic_lat"}) {
            assertTrue(PerftestOptions.parse(test, "-e").events(), test);
            assertTrue(PerftestOptions.parse(test, "--events").events(), test);
        }
        assertEquals("Events feature not available on WRITE verb", refusal("write_bw", "-e"));
        assertEquals("Events feature not available on WRITE verb", refusal("write_lat", "-e"));
        assertEquals("Duration mode doesn't work with events.", refusal("send_bw", "-e", "-D", "2"));
        // perftest takes -e with -R (Debian's ib_send_bw parses it); so does the twin (its rdma_cm
        // connection's completion queue on a channel of its own: TestResources.connectionOptions)
        PerftestOptions cmEvents = PerftestOptions.parse("send_bw", "-e", "-R");
        assertTrue(cmEvents.events() && cmEvents.rdmaCm());
    }

    @Test
    void bidirectionalAsPerftest() {
        for (String test : new String[] {"write_bw", "read_bw", "atomic_bw", "send_bw"}) {
            assertTrue(PerftestOptions.parse(test, "-b").duplex(), test);
            assertTrue(PerftestOptions.parse(test, "--bidirectional").duplex(), test);
        }
        for (String test : new String[] {"write_lat", "send_lat", "read_lat", "atomic_lat"}) {
            assertEquals("Bidirectional is only available in BW test", refusal(test, "-b"), test);
        }
        // Debian's ib_send_bw 4.5 refuses none of these while it parses (it goes on to look for a
        // device); neither does the twin.
        for (String connection : new String[] {"RC", "UC", "UD"}) {
            PerftestOptions both = PerftestOptions.parse("send_bw", "-b", "-c", connection);
            assertTrue(both.duplex() && both.connection().name().equals(connection), connection);
            assertEquals(2, PerftestOptions.parse("send_bw", "-b", "-c", connection, "-q", "2").queuePairs(), connection);
        }
        PerftestOptions timed = PerftestOptions.parse("send_bw", "-b", "-D", "2");
        assertTrue(timed.duplex() && timed.durationSeconds() == 2 && timed.noPeak(), "-b -D: perftest's peak 0.00 in duration mode");
        PerftestOptions listed = PerftestOptions.parse("send_bw", "-b", "-l", "2", "-n", "10");
        assertTrue(listed.duplex() && listed.postList() == 2 && listed.cqModeration() == 2, "-b -l: CQ moderation the post list");
        assertTrue(PerftestOptions.parse("write_bw", "-b", "-l", "2", "-n", "10").duplex(), "-l with -b on write_bw");
        assertFalse(PerftestOptions.parse("send_bw", "-b").noPeak(), "a bidirectional SEND server measures its peak");
        assertFalse(PerftestOptions.parse("write_bw", "-b").noPeak(), "a bidirectional server measures its peak");
    }

    @Test
    void queuePairsAsPerftest() {
        assertEquals(1, PerftestOptions.parse("write_bw").queuePairs());
        for (String test : new String[] {"write_bw", "read_bw", "atomic_bw"}) {
            assertEquals(4, PerftestOptions.parse(test, "-q", "4").queuePairs(), test);
            assertEquals(4, PerftestOptions.parse(test, "--qp=4").queuePairs(), test);
        }
        for (String test : new String[] {"write_lat", "send_lat", "read_lat", "atomic_lat"}) {
            assertEquals("Multiple QPs only available on bw tests", refusal(test, "-q", "2"), test);
        }
        assertEquals("num of Qps should be between 1 and 16384", refusal("write_bw", "-q", "0"));
        assertEquals("num of Qps should be between 1 and 16384", refusal("write_bw", "-q", "16385"));
        // send_bw -q: perftest's key-exchange order (Schedule.handShakeAfterRtrBetweenKeyLoops), on RC, UC and UD
        for (String connection : new String[] {"RC", "UC", "UD"}) {
            assertEquals(2, PerftestOptions.parse("send_bw", "-q", "2", "-c", connection).queuePairs(), connection);
        }
        // -q with -R: one rdma_cm connection per queue pair, as perftest
        for (String test : new String[] {"write_bw", "read_bw", "atomic_bw", "send_bw"}) {
            PerftestOptions cm = PerftestOptions.parse(test, "-q", "2", "-R");
            assertTrue(cm.rdmaCm() && cm.queuePairs() == 2, test);
        }
        for (String test : new String[] {"write_lat", "send_lat", "read_lat", "atomic_lat"}) {
            assertEquals("Multiple QPs only available on bw tests", refusal(test, "-q", "2", "-R"), test);
        }
        assertEquals(1, PerftestOptions.parse("send_bw", "-q", "1", "-R").queuePairs(), "one queue pair is fine with -R");
    }

    @Test
    void rdmaCmExchangeAsPerftest() {
        assertFalse(PerftestOptions.parse("send_bw").cmExchange());
        PerftestOptions z = PerftestOptions.parse("send_bw", "-z");
        assertTrue(z.cmExchange() && !z.rdmaCm(), "-z: the exchange over rdma_cm, the queue pairs as without it");
        assertTrue(PerftestOptions.parse("write_lat", "--com_rdma_cm", "-c", "UC").cmExchange(), "not refused with UC");
        assertTrue(PerftestOptions.parse("write_bw", "-R").cmExchange(), "-R implies it, as in perftest 4.5");
    }

    @Test
    void cqModerationAsPerftest() {
        assertEquals(100, PerftestOptions.parse("send_bw", "-s", "8192").cqModeration());
        PerftestOptions large = PerftestOptions.parse("write_bw", "-s", "16384");
        assertEquals(1, large.cqModeration(), "over 8 KiB perftest forces 1");
        assertTrue(large.notices().isEmpty());
        assertEquals(1, PerftestOptions.parse("write_bw").cqModeration(), "the default 65536 bytes too");
        PerftestOptions asked = PerftestOptions.parse("write_bw", "-s", "16384", "-Q", "10");
        assertEquals(10, asked.cqModeration());
        assertEquals("Warning: Large message requested and CQ moderation enabled\nWarning: It can lead to inaccurate results",
                asked.notices().getFirst().text());
        assertEquals(100, PerftestOptions.parse("send_bw", "-c", "UD", "-s", "16384").cqModeration(), "not on UD");
        assertEquals(100, PerftestOptions.parse("write_bw", "-a").cqModeration(), "not with -a");
        assertEquals(20, PerftestOptions.parse("write_bw", "-n", "20", "-s", "1024").cqModeration(), "cut to the tx depth");
        assertEquals("Post List requested - CQ moderation will be the size of the post list",
                PerftestOptions.parse("write_bw", "-l", "4").notices().getFirst().text());
    }

    @Test
    void inlineSizeAsPerftest() {
        assertEquals(0, PerftestOptions.parse("write_lat").inlineSize(), "perftest reports 0 unless -I (and on rxe always)");
        assertEquals(0, PerftestOptions.parse("send_bw").inlineSize());
        assertEquals(100, PerftestOptions.parse("send_lat", "-I", "100").inlineSize());
        PerftestOptions ud = PerftestOptions.parse("send_bw", "-c", "UD", "-I", "900");
        assertEquals(884, ud.inlineSize());
        assertEquals(new PerftestOptions.Notice("Setting inline size to 884 (Max inline size in UD)", true), ud.notices().getFirst());
        assertEquals("Max inline should be between 0 and 912", refusal("send_bw", "-I", "913"));
        assertEquals("Inline feature not available on READ/Atomic verbs", refusal("read_bw", "-I", "10"));
        assertEquals("Inline feature not available on READ/Atomic verbs", refusal("atomic_lat", "-I", "10"));
    }

    @Test
    void peakAsPerftest() {
        assertFalse(PerftestOptions.parse("write_bw", "host").noPeak());
        assertTrue(PerftestOptions.parse("write_bw", "-N", "host").noPeak());
        assertTrue(PerftestOptions.parse("send_bw").noPeak(), "a SEND server never measures the peak");
        assertFalse(PerftestOptions.parse("send_bw", "host").noPeak());
        assertTrue(PerftestOptions.parse("read_bw", "-D", "2", "host").noPeak(), "duration mode");
        assertTrue(PerftestOptions.parse("read_bw", "-n", "20001", "host").noPeak(), "over 20000 iterations");
        assertFalse(PerftestOptions.parse("read_bw", "-n", "20000", "host").noPeak());
        assertEquals("NoPeak only valid for BW tests", refusal("write_lat", "-N"));
    }

    @Test
    void atomicTypeAsPerftest() {
        assertEquals(PerftestOptions.AtomicType.FETCH_AND_ADD, PerftestOptions.parse("atomic_bw").atomicType());
        assertEquals(PerftestOptions.AtomicType.CMP_AND_SWAP, PerftestOptions.parse("atomic_lat", "-A", "CMP_AND_SWAP").atomicType());
        assertEquals(PerftestOptions.AtomicType.FETCH_AND_ADD,
                PerftestOptions.parse("atomic_bw", "--atomic_type=FETCH_AND_ADD").atomicType());
        assertEquals("Invalid Atomic type! please choose from {CMP_AND_SWAP,FETCH_AND_ADD}", refusal("atomic_bw", "-A", "SWAP"));
        assertEquals("You are not running the atomic_lat/bw test!\n To change the atomic action type, you must run one of the"
                + " atomic tests", refusal("send_bw", "-A", "CMP_AND_SWAP"));
    }

    @Test
    void serviceLevelAndQpTimeoutAsPerftest() {
        PerftestOptions defaults = PerftestOptions.parse("write_bw");
        assertEquals(0, defaults.serviceLevel());
        assertEquals(14, defaults.qpTimeout(), "DEF_QP_TIME");
        PerftestOptions given = PerftestOptions.parse("send_bw", "-S", "3", "--qp-timeout=20");
        assertEquals(3, given.serviceLevel());
        assertEquals(20, given.qpTimeout());
        assertEquals(15, PerftestOptions.parse("write_lat", "--sl=15").serviceLevel());
        assertEquals("Only 15 Service levels", refusal("write_bw", "-S", "20"));
        assertEquals("qp timeout should be between 0 and 31", refusal("write_bw", "-u", "40"));
    }

    @Test
    void allSizesOnAtomicTestsRefusedAsPerftest() {
        assertEquals("Message size cannot be changed for Atomic tests", refusal("atomic_bw", "-a"));
        assertEquals("Message size cannot be changed for Atomic tests", refusal("atomic_lat", "-a"));
        assertEquals("Iteration num should be between 5 and 100000000", refusal("send_bw", "-n", "0"));
    }

    @Test
    void outstandingReadsAsPerftest() {
        assertEquals(PerftestOptions.DEVICE_OUT_READS, PerftestOptions.parse("read_bw").outReads(), "not given: the device's max");
        assertEquals(4, PerftestOptions.parse("read_lat", "-o", "4").outReads());
        assertEquals(8, PerftestOptions.parse("atomic_bw", "--outs=8").outReads());
        assertEquals(PerftestOptions.DEVICE_OUT_READS, PerftestOptions.parse("read_bw", "-o", "-3").outReads(),
                "0 or less: the device's max, as perftest");
        assertEquals("Setting Outstanding reads only available on READ verb", refusal("send_bw", "-o", "4"));
        assertEquals("Setting Outstanding reads only available on READ verb", refusal("write_lat", "-o", "4"));
        // ctx_set_out_reads against rxe's max_qp_rd_atom of 128
        assertEquals(128, TestResources.outstandingReads(PerftestOptions.DEVICE_OUT_READS, 128));
        assertEquals(16, TestResources.outstandingReads(16, 128));
        assertEquals(128, TestResources.outstandingReads(500, 128), "above the max: cut to it");
    }

    @Test
    void optionsNotImplementedAreRefusedByName() {
        String[][] cases = {
            {"-g"}, {"-f", "1"}, {"-M", "ff0e::1"}, {"-W", "x"}, {"--margin", "2"}};
        for (String[] option : cases) {
            String[] args = new String[option.length + 1];
            args[0] = "send_bw";
            System.arraycopy(option, 0, args, 1, option.length);
            String message = refusal(args);
            String letter = option[0].startsWith("--") ? null : option[0];
            assertTrue(message.endsWith("is not supported by the Java perftest yet"), message);
            if (letter != null) {
                assertTrue(message.startsWith(letter + " (--"), message);
            } else {
                assertTrue(message.contains("(" + option[0].split("=")[0] + ")"), message);
            }
        }
        for (String longOnly : new String[] {"--ipv6", "--use-srq", "--run_infinitely", "--reversed", "--report-both",
            "--out_json", "--cpu_util", "--dont_xchg_versions", "--latency_gap=1"}) {
            String message = refusal("send_bw", longOnly);
            assertEquals(longOnly.split("=")[0] + " is not supported by the Java perftest yet", message);
        }
    }

    @Test
    void udSizeFitsTheMtuAsPerftest() {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        java.io.PrintStream err = new java.io.PrintStream(bytes, true, java.nio.charset.StandardCharsets.UTF_8);
        PerftestOptions fitted = PerftestOptions.parse("send_bw", "-c", "UD").fitToUdMtu(1024, err);
        assertEquals(1024, fitted.size(), "the default 65536 is cut to the MTU");
        assertEquals(" Max msg size in UD is MTU 1024\n Changing to this MTU\n", bytes.toString(java.nio.charset.StandardCharsets.UTF_8));
        assertEquals(1024, PerftestOptions.parse("send_lat", "-c", "UD", "-a", "-s", "4096").fitToUdMtu(1024, err).size(),
                "-a: up to the MTU");
        PerftestOptions small = PerftestOptions.parse("send_bw", "-c", "UD", "-s", "512");
        assertTrue(small == small.fitToUdMtu(1024, err));
        PerftestOptions rc = PerftestOptions.parse("send_bw");
        assertTrue(rc == rc.fitToUdMtu(1024, err));
        IllegalArgumentException given = assertThrows(IllegalArgumentException.class,
                () -> PerftestOptions.parse("send_bw", "-c", "UD", "-s", "4096").fitToUdMtu(1024, err));
        assertEquals("Max message size in UD cannot be greater than MTU", given.getMessage());
    }

    private static String refusal(String... args) {
        return assertThrows(IllegalArgumentException.class, () -> PerftestOptions.parse(args)).getMessage();
    }
}
