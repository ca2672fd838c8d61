package dev.panamaverbs.perftest.interop;

import java.util.List;
import java.util.Map;

/**
 * The twin's option table as the interop tests cover it: each option the twin implements
 * ({@code PerftestOptionParser.implementedOptions()}) is either run here, in a row of
 * {@link PerftestOptionTableInteropTwoHostTest} against Debian's perftest, or named with the
 * interop test that runs it already; {@code PerftestOptionTableTest} checks nothing is left out.
 * The options perftest has and the twin refuses are listed by {@code PerftestOptionParser.refusedOptions()}.
 */
final class PerftestOptionTable {
    private PerftestOptionTable() {}

    /**
     * One run of a test with options, given to both sides (the pairing adds {@code -d}, {@code -F},
     * {@code -s}, {@code -n}, {@code -p} and the host).
     */
    record Row(String test, int size, int iterations, List<String> options) {}

    /**
     * Several options per row to keep the VM time down: every row runs as our server with
     * perftest's client and perftest's server with our client.
     */
    static final List<Row> ROWS = List.of(
            // -w 0 -y 0: both verdicts given and passed whatever the figures; a failing limit is BandwidthLimitsTest's.
            // (-w 0.001 -y 0.000001 failed once: under TCG perftest's client measured 0.00 MB/s, and both sides
            // then gave perftest's verdict, 2026-11-29 09:23)
            new Row("write_bw", 1024, 20, List.of("-t", "16", "-Q", "4", "-N", "-I", "64", "-u", "16", "-S", "0", "-i", "1",
                    "-w", "0", "-y", "0")),
            new Row("read_bw", 1024, 20, List.of("-o", "8", "-m", "512", "--report_gbits", "-e")),
            new Row("send_bw", 4096, 20, List.of("-r", "8", "-e", "-X", "0")),
            // no -e here: ib_send_lat -e as the server stopped answering our client at its 6th message
            // (2026-11-28; our server with its client passed): send_bw and read_bw run -e instead
            new Row("send_lat", 64, 20, List.of("-r", "4", "-C", "-H", "-U")),
            // -Q 1: perftest's warm-up waits for a completion per request while only every -Q-th is
            // signaled, so ib_write_bw --perform_warm_up hangs unless -Q 1 (both directions, 2026-11-29)
            new Row("write_bw", 4096, 20, List.of("-b", "--use_old_post_send", "--perform_warm_up", "-Q", "1")),
            new Row("send_bw", 4096, 20, List.of("-b")),
            // issue 22's last round: combinations perftest runs that the twin refused before, each
            // passed both ways in a two-VM run on 2026-11-28 (as did send_bw -q 2 on RC)
            new Row("send_bw", 512, 20, List.of("-q", "2", "-c", "UD", "--tclass=32")),
            new Row("send_bw", 1024, 20, List.of("-b", "-c", "UC")),
            new Row("send_bw", 512, 20, List.of("-b", "-c", "UD")),
            new Row("send_bw", 1024, 20, List.of("-b", "-l", "2")),
            new Row("read_bw", 4096, 20, List.of("-q", "2", "--wait_destroy=1")),
            // --pkey_index=1: within rxe's table, or cut to 0 with perftest's notice on both sides
            new Row("write_bw", 1024, 20, List.of("-z", "--tclass=32", "--pkey_index=1")),
            new Row("atomic_lat", 8, 20, List.of("-A", "CMP_AND_SWAP", "-o", "4")),
            // --output: one figure a side and no full report (PerftestInterop checks the figure's form)
            new Row("write_bw", 1024, 20, List.of("--output=bandwidth")),
            new Row("send_lat", 64, 20, List.of("--output=latency", "-H")),
            // -R with several queue pairs (one rdma_cm connection each) and with UD (rdma_cm's UDP
            // port space; send_lat's client sends its QPN in a datagram), as perftest 4.5
            new Row("send_bw", 1024, 20, List.of("-q", "2", "-R")),
            new Row("write_bw", 1024, 20, List.of("-q", "2", "-R", "--retry_count=5")),
            new Row("read_bw", 1024, 20, List.of("-q", "2", "-R")),
            new Row("send_bw", 512, 20, List.of("-c", "UD", "-R")),
            new Row("send_lat", 64, 20, List.of("-c", "UD", "-R")));

    /** Options every row gives (the pairing's own arguments). */
    static final List<String> EVERY_ROW = List.of("ib-dev", "CPU-freq", "size", "iters", "port", "timeout");

    /** Options run by other interop tests, with the test. */
    static final Map<String, String> ELSEWHERE = Map.of(
            "all", "PerftestSendBwAllSizesInteropTwoHostTest, PerftestSendLatAllSizesInteropTwoHostTest",
            "connection", "PerftestSendBwUdInteropTwoHostTest (-c UD), PerftestWriteLatUcInteropTwoHostTest (-c UC)",
            "post_list", "PerftestWriteBwPostListInteropTwoHostTest (-l 4)",
            "rdma_cm", "Perftest{WriteLat,WriteBw,SendLat,SendBw}CmInteropTwoHostTest (-R)",
            "duration", "perftest sweep (./verbs bench; -D), not run here: its rows have another format",
            "gid-index", "every pairing (perftest's GID choice; -x in ./verbs bench)",
            "sizes", "not perftest's: the sweep's --sizes series (PerftestSweepTwoHostTest)",
            "help", "PerftestReportOptionsTest (no run: the usage, exit status 1 as Debian's tools)",
            "version", "PerftestReportOptionsTest (no run: \"Version: 6.06\", exit status 1 as Debian's tools)");
}
