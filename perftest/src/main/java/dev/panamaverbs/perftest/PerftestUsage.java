package dev.panamaverbs.perftest;

import java.util.Map;
import java.util.function.Predicate;

/**
 * The twin's usage texts: the summary printed after an option error, and each test's
 * {@code -h} in perftest's form ({@code usage} in its {@code perftest_parameters.c}): perftest's
 * lines, in its order and with its text, for the options the twin takes on that test.
 */
final class PerftestUsage {
    private PerftestUsage() {}

    /**
     * perftest's usage lines for the options the twin takes, in perftest's order, each after the
     * tests it is shown for ({@link #SHOWN}) and a bar. The {@code -c} lines name the connection
     * types the twin runs (perftest's name XRC, DC and SRD too); perftest's {@code -U} line says
     * "(implies -H)", which neither its code nor the twin's does; the last two are the twin's own.
     */
    private static final String LINES = """
            nonatomic|  -a, --all  Run sizes from 2 till 2^23
            atomic|  -A, --atomic_type=<type>  type of atomic operation from {CMP_AND_SWAP,FETCH_AND_ADD} (default FETCH_AND_ADD)
            bw|  -b, --bidirectional  Measure bidirectional bandwidth (default unidirectional)
            send|  -c, --connection=<RC/UC/UD>  Connection type RC/UC/UD (default RC)
            write|  -c, --connection=<RC/UC>  Connection type RC/UC (default RC)
            onesided|  -c, --connection=<RC>  Connection type RC (default RC)
            lat|  -C, --report-cycles  report times in cpu cycle units (default microseconds)
            all|  -d, --ib-dev=<dev>  Use IB device <dev> (default first device found)
            all|  -D, --duration  Run test for a customized period of seconds.
            events|  -e, --events  Sleep on CQ events (default poll)
            events|  -X, --vector=<completion vector>  Set <completion vector> used for events
            all|  -F, --CPU-freq  Do not show a warning even if cpufreq_ondemand module is loaded, and cpu-freq is not on max.
            all|  -h, --help  Show this help screen.
            lat|  -H, --report-histogram  Print out all results (default print summary only)
            all|  -i, --ib-port=<port>  Use port <port> of IB device (default 1)
            inline|  -I, --inline_size=<size>  Max size of message to be sent in inline
            bw|  -l, --post_list=<list size>
            bw| Post list of send WQEs of <list size> size (instead of single post)
            all|  -m, --mtu=<mtu>  MTU size : 256 - 4096 (default port mtu)
            not_write_bw|  -n, --iters=<iters>  Number of exchanges (at least 5, default 1000)
            write_bw|  -n, --iters=<iters>  Number of exchanges (at least 5, default 5000)
            bw|  -N, --noPeak Cancel peak-bw calculation (default with peak up to iters=20000)
            onesided|  -o, --outs=<num>  num of outstanding read/atom(default max of device)
            all|  -p, --port=<port>  Listen on/connect to port <port> (default 18515)
            bw|  -q, --qp=<num of qp's>  Num of qp's(default 1)
            bw|  -Q, --cq-mod  Generate Cqe only after <--cq-mod> completion
            send|  -r, --rx-depth=<dep>  Rx queue size (default 512).
            all|  -R, --rdma_cm  Connect QPs with rdma_cm and run test on those QPs
            sized_lat|  -s, --size=<size>  Size of message to exchange (default 2)
            sized_bw|  -s, --size=<size>  Size of message to exchange (default 65536)
            all|  -S, --sl=<sl>  SL (default 0)
            bw|  -t, --tx-depth=<dep>  Size of tx queue (default 128)
            all|  -u, --qp-timeout=<timeout>  QP timeout, timeout value is 4 usec * 2 ^(timeout), default 14
            lat|  -U, --report-unsorted  print out unsorted results (default sorted)
            all|  -V, --version  Display version number
            bw|  -w, --limit_bw=<value>  Set verifier limit for bandwidth
            all|  -x, --gid-index=<index>  Test uses GID with GID index (Default : IB - no gid . ETH - 0)
            bw|  -y, --limit_msgrate=<value>  Set verifier limit for Msg Rate
            all|  -z, --com_rdma_cm  Communicate with rdma_cm module to exchange data - use regular QPs
            all|
            all|      --output=<units> Set verbosity output level: bandwidth , message_rate, latency
            all| Latency measurement is Average calculation
            all|      --use_old_post_send Use old post send flow (ibv_post_send).
            all|      --perform_warm_up Perform some iterations before start measuring in order to warming-up memory cache, valid in Atomic, Read and Write BW tests
            all|      --pkey_index=<pkey index> PKey index to use for QP
            bw|      --report_gbits  Report Max/Average BW of test in Gbit/sec (instead of MiB/sec)
            bw|        Note: MiB=2^20 byte, while Gb=10^9 bits. Use these formulas for conversion:
            bw|        Factor=10^9/(2^20*8)=119.2; MiB=Gb_result * factor; Gb=MiB_result / factor
            all|      --retry_count=<value>  Set retry count value in rdma_cm mode
            all|      --tclass=<value>  Set the Traffic Class in GRH (if GRH is in use)
            all|      --wait_destroy=<seconds>  Wait <seconds> before destroying allocated resources (QP/CQ/PD/MR..)
            all|      --timeout=<seconds>  Bound on every wait (default 60; the twin's own, not perftest's)
            all|      --sizes=<size>[:<iters>],...  One run per size, each its own connection on port <port>+i (the twin's own, not perftest's)
            """;

    /** The tests each tag of {@link #LINES} is shown for, as perftest's {@code usage} chooses them. */
    private static final Map<String, Predicate<TestKind>> SHOWN = Map.ofEntries(
            Map.entry("all", test -> true),
            Map.entry("lat", TestKind::isLatency),
            Map.entry("bw", test -> !test.isLatency()),
            Map.entry("send", test -> test.verb() == TestKind.Verb.SEND),
            Map.entry("write", test -> test.verb() == TestKind.Verb.WRITE),
            Map.entry("atomic", test -> test.verb() == TestKind.Verb.ATOMIC),
            Map.entry("nonatomic", test -> test.verb() != TestKind.Verb.ATOMIC),
            Map.entry("onesided", test -> test.verb() == TestKind.Verb.READ || test.verb() == TestKind.Verb.ATOMIC),
            Map.entry("events", test -> test.verb() != TestKind.Verb.WRITE),
            Map.entry("inline", test -> test.verb() == TestKind.Verb.WRITE || test.verb() == TestKind.Verb.SEND),
            Map.entry("write_bw", test -> test == TestKind.WRITE_BW),
            Map.entry("not_write_bw", test -> test != TestKind.WRITE_BW),
            Map.entry("sized_lat", test -> test.isLatency() && test.verb() != TestKind.Verb.ATOMIC),
            Map.entry("sized_bw", test -> !test.isLatency() && test.verb() != TestKind.Verb.ATOMIC));

    /** {@code -h} of {@code test}: perftest's usage text with the twin's options of that test. */
    static String of(TestKind test) {
        StringBuilder text = new StringBuilder("Usage:\n");
        text.append("  ").append(test.program()).append("            start a server and wait for connection\n");
        text.append("  ").append(test.program()).append(" <host>     connect to server at <host>\n\nOptions:\n");
        for (String line : LINES.split("\n")) {
            int bar = line.indexOf('|');
            if (SHOWN.get(line.substring(0, bar)).test(test)) {
                text.append(line.substring(bar + 1)).append('\n');
            }
        }
        return text.toString();
    }

    /** The summary of every test's options, printed after an option error. */
    static final String USAGE = """
            Usage:
              TEST [OPTIONS]          start a server and wait for connection
              TEST [OPTIONS] <host>   connect to server at <host>
            TEST: write_lat send_lat read_lat atomic_lat write_bw send_bw read_bw atomic_bw
            Options (perftest's names and meanings):
              -p, --port=<port>          listen on/connect to port <port> (default 18515)
              -d, --ib-dev=<dev>         use IB device <dev> (default first device found)
              -i, --ib-port=<port>       use port <port> of IB device (default 1)
              -x, --gid-index=<index>    GID index (default: IB none, RoCE v2 IPv4 first)
              -s, --size=<size>          message size (default 2 lat, 65536 bw, 8 atomic)
              -n, --iters=<iters>        iterations (at least 5, default 1000; write_bw 5000)
              -D, --duration=<seconds>   run for <seconds> instead of -n
              -a, --all                  run sizes from 2 till 2^23 (not atomic tests)
              -A, --atomic_type=<type>   CMP_AND_SWAP or FETCH_AND_ADD (atomic tests; default FETCH_AND_ADD)
              -t, --tx-depth=<dep>       size of tx queue (default 1 lat, 128 bw)
              -l, --post_list=<list size> post lists of requests, chained in one post (bw tests)
              -Q, --cq-mod=<n>           generate a completion every <n> requests (default 100 bw;
                                         1 above 8192 bytes)
              -I, --inline_size=<size>   max size of message to be sent inline (default 0; not READ/atomic)
              -o, --outs=<num>           outstanding reads/atomics (READ/atomic tests; default the device's max)
              -N, --noPeak               cancel peak-bw calculation (bw tests)
              -S, --sl=<sl>              service level 0-15 (default 0; not with -R)
              -u, --qp-timeout=<timeout> QP timeout, 4 usec * 2^timeout, 0-31 (default 14)
              -r, --rx-depth=<dep>       receive queue depth, 1-16384 (default 512 SEND tests; 1, the
                                         only value, on the others)
              -e, --events               sleep on CQ events instead of polling (not WRITE, not with -D)
              -X, --vector=<vector>      completion vector of the CQ with -e, 0-2048 (default 0)
              -b, --bidirectional        both sides run the test (bw tests)
              -q, --qp=<num of qp's>     queue pairs, 1-16384, each running -n iterations (bw tests;
                                         with -R one rdma_cm connection each)
              -c, --connection=<RC/UC/UD> connection type (default RC)
              -m, --mtu=<mtu>            MTU size: 256 - 4096 (default port mtu)
              -F, --CPU-freq             accepted, as perftest's (no CPU frequency check here)
              -R, --rdma_cm              connect QPs with rdma_cm, and exchange data over it (RC, UD)
              -z, --com_rdma_cm          exchange data over rdma_cm, connect QPs as without it
              -C, --report-cycles        latency in CPU cycles instead of usec (lat tests)
              -H, --report-histogram     print every measured latency, sorted (lat tests)
              -U, --report-unsorted      print every latency in the order measured (lat tests)
              -w, --limit_bw=<value>     fail the run (exit 1) when no row reaches this average
                                         bandwidth (bw tests; as perftest 4.5, checked only with -w,
                                         and then -y too)
              -y, --limit_msgrate=<value> fail the run when no row reaches this message rate (Mpps)
              -h, --help                 the test's usage in perftest's form (exit status 1)
              -V, --version              perftest's version, Version: 6.06 (exit status 1)
                  --report_gbits         report bandwidth in Gb/s instead of MB/s
                  --retry_count=<value>  rdma_cm's retry count with -R (at most 7, as the kernel;
                                         default 6 here, perftest's 7 retries for ever on rxe)
                  --wait_destroy=<seconds> wait before destroying the resources (default 0)
                  --pkey_index=<index>   the queue pairs' P_Key index (not with -R; above the
                                         device's max_pkeys - 1: 0, with perftest's notice)
                  --tclass=<value>       GRH traffic class where the path has a GRH (not with -R)
                  --output=<units>       print only the average bandwidth, message rate (bw tests) or
                                         latency (lat tests), C's %lf, and none of the rest
                  --use_old_post_send    accepted: the twin always posts with ibv_post_send
                  --perform_warm_up      -t requests (-l's with a post list) on each QP before each
                                         size's run (WRITE/READ/atomic bw tests; taken on the others)
                  --timeout=<seconds>    bound on every wait (default 60; not a perftest option)
                  --sizes=<size>[:<iters>],...  one run per size, each its own connection, the
                                         i-th on port <port>+i, in this one process (not a
                                         perftest option; the peer may be one perftest per size;
                                         the atomic tests take only 8)
            Refused: -L and -T as perftest refuses them here (-T with -R: no rdma_set_option in the
            library); -O, --odp, -c XRC and --rate_limit by what the device reports; -c DC/SRD,
            --aes_xts and --inline_recv as other providers' features; perftest's other options by
            name, as not supported yet.
            """;
}
