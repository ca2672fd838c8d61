package dev.panamaverbs.perftest;

/** The twin's usage texts: the summary printed after an option error. */
final class PerftestUsage {
    private PerftestUsage() {}

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
              -b, --bidirectional        both sides run the test (bw tests)
              -q, --qp=<num of qp's>     queue pairs, 1-16384, each running -n iterations (bw tests;
                                         with -R one rdma_cm connection each)
              -c, --connection=<RC/UC/UD> connection type (default RC)
              -m, --mtu=<mtu>            MTU size: 256 - 4096 (default port mtu)
              -F, --CPU-freq             accepted, as perftest's (no CPU frequency check here)
              -R, --rdma_cm              connect QPs with rdma_cm, and exchange data over it (RC, UD)
              -z, --com_rdma_cm          exchange data over rdma_cm, connect QPs as without it
                  --report_gbits         report bandwidth in Gb/s instead of MB/s
                  --timeout=<seconds>    bound on every wait (default 60; not a perftest option)
                  --sizes=<size>[:<iters>],...  one run per size, each its own connection, the
                                         i-th on port <port>+i, in this one process (not a
                                         perftest option; the peer may be one perftest per size;
                                         the atomic tests take only 8)
            perftest's other options are refused, by name, as not supported yet.
            """;
}
