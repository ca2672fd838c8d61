package dev.panamaverbs.perftest.interop;

import dev.panamaverbs.it.support.PeerPairing;
import dev.panamaverbs.it.support.InteropPairingTests;
import dev.panamaverbs.it.support.InteropPeers;
import dev.panamaverbs.it.support.PeerHost;
import dev.panamaverbs.it.support.PeerPairing.Listening;
import dev.panamaverbs.it.support.PeerPairing.Outputs;
import dev.panamaverbs.perftest.interop.resident.ResidentTwins;
import dev.panamaverbs.testkit.DeviceCapability;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One perftest test ({@code write_lat} ...) between our Java twin (the perftest module's
 * executable jar) and Debian's perftest 4.5 ({@code ib_write_lat} ...), both ways, and Java with
 * Java, across the two hosts: the server on host B, the client on host A, each on its rxe1, the
 * out-of-band TCP connection to B's link address (with {@code -R}, rdma_cm connections instead).
 * Both must exit 0 and print perftest's result table with a row for the size and iterations
 * asked for. A WRITE, READ or atomic bandwidth server measures nothing itself: its row is the
 * client's, received in perftest's report exchange, so that row checks the exchange too (with
 * {@code -a}, only the last size's row, as perftest's). A READ or atomic latency server prints no
 * table at all, as perftest's.
 */
public abstract class PerftestInterop extends InteropPairingTests {
    public static final String PERFTEST_JAR = "panamaverbs.perftest.jar";
    /** The twin's executable jar, from the repository root (where ./verbs test runs), unless {@value #PERFTEST_JAR} names another. */
    static final String TWIN_JAR = "perftest/target/verbs-perftest.jar";
    /** TCP ports of our own, one per pairing (a server's port in TIME_WAIT never collides). */
    private static final AtomicInteger NEXT_PORT = new AtomicInteger(18600);
    /**
     * perftest's warning about its cycle counter ({@code get_cpu_mhz}, on stderr), which under the
     * VM's emulated CPU can land in the middle of a table row of the merged output (seen in
     * {@code ib_send_bw -a}: {@code " 1048576 5 1.94 1.94 0.000002Correlation coefficient r^2: 0.859 < 0.9"}).
     */
    private static final Pattern CPU_CLOCK_WARNING = Pattern.compile("Correlation coefficient r\\^2: [0-9.]+ < [0-9.]+\\n?");
    /** The size that stands for {@code -a}: every size from 2 B to 8 MiB, a row each. */
    static final int ALL_SIZES = 0;
    /** perftest's largest size of {@code -a} on RC and UC (2^23 bytes). */
    private static final int ALL_SIZES_MAX = 1 << 23;
    /** The active MTU of the VMs' rxe1 (perftest's {@code -a} on UD stops there). */
    private static final int LINK_MTU = 1024;

    /** perftest's headers ({@code RESULT_FMT_LAT}, {@code RESULT_FMT}), written out here independently of the tool's code. */
    static final String LATENCY_HEADER = " #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]"
            + "    t_stdev[usec]   99% percentile[usec]   99.9% percentile[usec] ";
    static final String BANDWIDTH_HEADER = " #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]";
    /** perftest's {@code RESULT_FMT_G}, with {@code --report_gbits}. */
    static final String BANDWIDTH_HEADER_GBITS = " #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]";

    /**
     * The latency tests whose server only answers the key exchange and waits: it is the target of the
     * client's READs or atomics, measures nothing and, in perftest 4.5 as in our twin, prints no table.
     */
    private static final List<String> PASSIVE_LATENCY_SERVERS = List.of("read_lat", "atomic_lat");
    /**
     * The bandwidth tests whose server only waits for the client's last hand shake (without
     * {@code -b}): with {@code -a} it prints one row, the client's report of the largest size, as
     * perftest 4.5's does (seen in a two-VM run of {@code ib_write_bw -a} and {@code ib_read_bw -a}).
     */
    private static final List<String> PASSIVE_BANDWIDTH_SERVERS = List.of("write_bw", "read_bw", "atomic_bw");
    /** The twin's {@code --timeout} (its bound on every wait) in the suite. */
    static final Duration TWIN_TIMEOUT = Duration.ofSeconds(60);

    private final String test;
    private final int size;
    private final int iterations;
    private final boolean rdmaCm;
    private final List<String> options;
    private final Duration twinTimeout;

    PerftestInterop(String test, int size, int iterations) {
        this(test, size, iterations, false);
    }

    /**
     * With perftest options of the test's own ({@code -c UC}, {@code -l 4} ...), given to both
     * sides; the pairing's name carries them.
     */
    PerftestInterop(String test, int size, int iterations, List<String> options) {
        this(test, size, iterations, false, options);
    }

    PerftestInterop(String test, int size, int iterations, boolean rdmaCm) {
        this(test, size, iterations, rdmaCm, List.of());
    }

    /**
     * With {@code rdmaCm}, both sides run with {@code -R}: the out-of-band link and the test's
     * queue pair are rdma_cm connections on the port, so the client starts once the server's
     * rdma_cm identifier listens there, and both must say so in their test description.
     */
    private PerftestInterop(String test, int size, int iterations, boolean rdmaCm, List<String> options) {
        this(test, size, iterations, rdmaCm, options, TWIN_TIMEOUT, TIMEOUT);
    }

    /**
     * With the twin's {@code --timeout} and the bound on a whole pairing ({@code pairingTimeout},
     * both sides) of a run longer than the suite's ({@link PerftestAllSizesTwoHostTest}).
     */
    PerftestInterop(String test, int size, int iterations, Duration twinTimeout, Duration pairingTimeout) {
        this(test, size, iterations, false, List.of(), twinTimeout, pairingTimeout);
    }

    private PerftestInterop(String test, int size, int iterations, boolean rdmaCm, List<String> options, Duration twinTimeout,
                            Duration pairingTimeout) {
        super("ib_" + test + (rdmaCm ? " -R" : "") + (size == ALL_SIZES ? " -a" : "")
                + (options.isEmpty() ? "" : " " + String.join(" ", options)), pairingTimeout);
        this.twinTimeout = twinTimeout;
        this.test = test;
        this.size = size;
        this.iterations = iterations;
        this.rdmaCm = rdmaCm;
        this.options = List.copyOf(options);
    }

    @Override
    public void pair(String device, PeerHost serverHost, PeerHost clientHost, boolean javaServer, boolean javaClient) throws Exception {
        if (!rdmaCm && !options.contains("-R")) {
            requireCapability(device, DeviceCapability.CONNECT_WITHOUT_CM); // queue pairs connected by ibv_modify_qp
        }
        int port = NEXT_PORT.getAndIncrement();
        List<String> serverArgs = new ArrayList<>(List.of("-d", device, "-F"));
        serverArgs.addAll(size == ALL_SIZES ? List.of("-a") : List.of("-s", Integer.toString(size)));
        serverArgs.addAll(List.of("-n", Integer.toString(iterations), "-p", Integer.toString(port)));
        if (rdmaCm) {
            serverArgs.add("-R");
        }
        serverArgs.addAll(options);
        List<String> clientArgs = new ArrayList<>(serverArgs);
        clientArgs.add(serverHost.address().getHostAddress());
        if (residentTwin()) {
            java.nio.file.Path jar = twinJar();
            serverHost = ResidentTwins.on(serverHost, jar);
            clientHost = ResidentTwins.on(clientHost, jar);
            ResidentTwins.startOn(serverHost, clientHost);
        }
        Outputs outputs = run(serverHost, javaServer, serverArgs, clientHost, javaClient, clientArgs,
                cmLink() ? Listening.RDMA_CM : Listening.TCP, port);
        check(outputs);
        passed(outputs);
    }

    /** Whether the out-of-band link is an rdma_cm connection. */
    private boolean cmLink() {
        return rdmaCm || options.contains("-R") || options.contains("-z");
    }

    /** Checks both sides' outputs of a pairing that ran: fails (with both outputs) on the first thing missing. */
    void check(Outputs outputs) {
        if (options.stream().anyMatch(option -> option.startsWith("--output="))) {
            checkFigureOnly(outputs);
            return;
        }
        String header = test.endsWith("_lat") ? LATENCY_HEADER
                : options.contains("--report_gbits") ? BANDWIDTH_HEADER_GBITS : BANDWIDTH_HEADER;
        int columns = test.endsWith("_lat") ? 9 : 5;
        for (String[] side : new String[][] {{"server", outputs.server()}, {"client", outputs.client()}}) {
            if (side[0].equals("server") && PASSIVE_LATENCY_SERVERS.contains(test)) {
                PeerPairing.expect(outputs, side[0], side[1], text -> !text.contains(header), "a result table from a passive server");
            } else {
                PeerPairing.expect(outputs, side[0], side[1], text -> text.contains("\n" + header + "\n"), "no result table header");
                List<Integer> sizes = rowSizes();
                boolean lastSizeOnly = side[0].equals("server") && size == ALL_SIZES && PASSIVE_BANDWIDTH_SERVERS.contains(test)
                        && !options.contains("-b");
                if (lastSizeOnly) {
                    PeerPairing.expect(outputs, side[0], side[1], text -> !hasRow(text, sizes.getFirst(), columns),
                            "a row for " + sizes.getFirst() + " bytes from a server that reports only the last size");
                }
                for (int rowSize : lastSizeOnly ? List.of(sizes.getLast()) : sizes) {
                    PeerPairing.expect(outputs, side[0], side[1], text -> hasRow(text, rowSize, columns),
                            "no result row for " + rowSize + " bytes and " + rowIterations() + " iterations with " + columns + " figures");
                }
            }
            PeerPairing.expect(outputs, side[0], side[1], text -> text.contains("remote address: LID"), "no remote address line");
            if (cmLink()) {
                PeerPairing.expect(outputs, side[0], side[1], text -> text.contains(" Data ex. method : rdma_cm"),
                        "no \"Data ex. method : rdma_cm\" in the test description");
            }
        }
    }

    /**
     * With {@code --output}: each side prints its one figure (C's {@code %lf}: six decimals) and none
     * of perftest's full report (no header, no address lines); a READ or atomic latency server
     * prints no figure either.
     */
    private void checkFigureOnly(Outputs outputs) {
        Pattern figure = Pattern.compile("(?m)^(?:[0-9]+\\.[0-9]{6}|inf|-?nan)$");
        for (String[] side : new String[][] {{"server", outputs.server()}, {"client", outputs.client()}}) {
            PeerPairing.expect(outputs, side[0], side[1], text -> !text.contains(" #bytes") && !text.contains("remote address"),
                    "perftest's full report despite --output");
            if (!(side[0].equals("server") && PASSIVE_LATENCY_SERVERS.contains(test))) {
                PeerPairing.expect(outputs, side[0], side[1],
                        text -> figure.matcher(CPU_CLOCK_WARNING.matcher(text).replaceAll("")).find(), "no --output figure line");
            }
        }
    }

    /** Called with both outputs once a pairing passed every check; nothing by default. */
    void passed(Outputs outputs) {}

    /**
     * Whether a line of {@code text} is a table row: {@code size}, {@code iterations}, then the
     * figures. perftest may print {@code inf} and {@code -nan} there: under the VM's emulated CPU
     * its cycle counter's frequency sometimes reads as 0 (seen with ib_send_lat's server).
     */
    private boolean hasRow(String text, int rowSize, int columns) {
        Matcher row = Pattern.compile("(?m)^ " + rowSize + "\\s+" + rowIterations() + "((?:\\s+(?:[0-9]+\\.[0-9]+|inf|-?nan))+)\\s*$")
                .matcher(CPU_CLOCK_WARNING.matcher(text).replaceAll(""));
        while (row.find()) {
            if (row.group(1).strip().split("\\s+").length == columns - 2) {
                return true;
            }
        }
        return false;
    }

    /** The iterations a bandwidth row counts: {@code -n} on each queue pair of {@code -q}, as perftest reports them. */
    private long rowIterations() {
        int q = options.indexOf("-q");
        return q < 0 || test.endsWith("_lat") ? iterations : (long) iterations * Integer.parseInt(options.get(q + 1));
    }

    /**
     * The sizes with a row: the one asked for, or with {@code -a} every power of two from 2 B to
     * 8 MiB (on UD to the link's MTU, {@value #LINK_MTU} B between the VMs).
     */
    private List<Integer> rowSizes() {
        if (size != ALL_SIZES) {
            return List.of(size);
        }
        List<Integer> sizes = new ArrayList<>();
        int largest = options.contains("UD") ? LINK_MTU : ALL_SIZES_MAX;
        for (int s = 2; s <= largest; s *= 2) {
            sizes.add(s);
        }
        return sizes;
    }

    /**
     * Whether this class's Java sides run as jobs of the hosts' resident twins
     * ({@link ResidentTwins}: the same code as the jar's {@code main}, without a JVM start per
     * side). The all-sizes pairings ({@code -a}) keep {@code java -jar}, so the suite runs the jar
     * itself on both hosts; {@code VERBS_RESIDENT_TWIN=0} makes every class do so.
     */
    private boolean residentTwin() {
        return ResidentTwins.enabled() && size != ALL_SIZES;
    }

    /** The twin's executable jar ({@link #TWIN_JAR}). */
    static java.nio.file.Path twinJar() {
        return InteropPeers.jarPath(PERFTEST_JAR, TWIN_JAR);
    }

    @Override
    public List<String> command(boolean java, List<String> args) {
        List<String> full = new ArrayList<>(args);
        if (java) {
            full.addAll(List.of("--timeout", Long.toString(twinTimeout.toSeconds())));
            full.addFirst(test);
            if (residentTwin()) {
                full.addFirst(ResidentTwins.COMMAND);
                return full;
            }
            return InteropPeers.jar(PERFTEST_JAR, TWIN_JAR, full);
        }
        return InteropPeers.c("ib_" + test, "perftest", full);
    }
}
