package dev.panamaverbs.examples.pingpong;

import dev.panamaverbs.values.Mtu;
import dev.panamaverbs.examples.cli.GetOpt;
import java.time.Duration;
import java.util.Map;

/**
 * {@code ibv_rc_pingpong}'s options, with its defaults: {@code -p} TCP port (18515), {@code -d}
 * device (the first), {@code -i} port of the device (1), {@code -s} message size (4096),
 * {@code -m} path MTU (1024), {@code -r} receives posted at a time (500), {@code -n} iterations
 * (1000), {@code -l} service level (0), {@code -g} GID index (none: LID addressing), {@code -c}
 * validate the received buffer (rc_pingpong's check: the first byte of every page is 0); a server
 * without a host operand, a client with one. {@code -T}/{@code --timeout} (seconds, 60) is ours:
 * the bound on every wait (TCP connect, accept and reads, and the wait for each completion).
 *
 * @param server     the server's host name, {@code null} for the server side
 */
public record PingPongOptions(String server, int port, String device, int ibPort, int size, Mtu mtu,
                              int rxDepth, int iters, int serviceLevel, int gidIndex, boolean validate,
                              Duration timeout) {
    /** Without {@code -g}: no GID, address by LID. */
    public static final int NO_GID = -1;

    private static final GetOpt GETOPT = new GetOpt("p:d:i:s:m:r:n:l:g:cT:", Map.ofEntries(
            Map.entry("port", 'p'), Map.entry("ib-dev", 'd'), Map.entry("ib-port", 'i'), Map.entry("size", 's'),
            Map.entry("mtu", 'm'), Map.entry("rx-depth", 'r'), Map.entry("iters", 'n'), Map.entry("sl", 'l'),
            Map.entry("gid-idx", 'g'), Map.entry("chk", 'c'), Map.entry("timeout", 'T')));

    /** The usage text. */
    public static final String USAGE = """
            Usage:
              rc-pingpong            start a server and wait for connection
              rc-pingpong <host>     connect to server at <host>

            Options:
              -p, --port=<port>      listen on/connect to port <port> (default 18515)
              -d, --ib-dev=<dev>     use IB device <dev> (default first device found)
              -i, --ib-port=<port>   use port <port> of IB device (default 1)
              -s, --size=<size>      size of message to exchange (default 4096)
              -m, --mtu=<size>       path MTU (default 1024)
              -r, --rx-depth=<dep>   number of receives to post at a time (default 500)
              -n, --iters=<iters>    number of exchanges (default 1000)
              -l, --sl=<sl>          service level value
              -g, --gid-idx=<gid index> local port gid index
              -c, --chk              validate received buffer
              -T, --timeout=<sec>    bound on every wait: TCP and each completion (default 60)
            """;

    /** Checks the ranges rc_pingpong checks, and a few it leaves to the verbs. */
    public PingPongOptions {
        require(port >= 0 && port <= 65535, "port must be in 0..65535, got " + port);
        require(ibPort >= 1, "ib port must be at least 1, got " + ibPort);
        require(size >= 1, "size must be at least 1, got " + size);
        require(rxDepth >= 1, "rx depth must be at least 1, got " + rxDepth);
        require(iters >= 1, "iters must be at least 1, got " + iters);
        require(serviceLevel >= 0 && serviceLevel <= 15, "sl must be in 0..15, got " + serviceLevel);
        require(gidIndex >= NO_GID && gidIndex <= 255, "gid index must be in 0..255, got " + gidIndex);
        require(timeout != null && !timeout.isNegative() && !timeout.isZero(), "timeout must be positive");
    }

    /** Parses the command line. */
    public static PingPongOptions parse(String... args) {
        String server = null;
        int port = 18515;
        String device = null;
        int ibPort = 1;
        int size = 4096;
        Mtu mtu = Mtu.MTU_1024;
        int rxDepth = 500;
        int iters = 1000;
        int sl = 0;
        int gid = NO_GID;
        boolean validate = false;
        Duration timeout = Duration.ofSeconds(60);
        GetOpt.Parsed parsed = GETOPT.parse(args);
        for (GetOpt.Option option : parsed.options()) {
            String v = option.value();
            switch (option.letter()) {
                case 'p' -> port = intValue(v, "port");
                case 'd' -> device = v;
                case 'i' -> ibPort = intValue(v, "ib port");
                case 's' -> size = intValue(v, "size");
                case 'm' -> mtu = mtu(intValue(v, "mtu"));
                case 'r' -> rxDepth = intValue(v, "rx depth");
                case 'n' -> iters = intValue(v, "iters");
                case 'l' -> sl = intValue(v, "sl");
                case 'g' -> gid = intValue(v, "gid index");
                case 'c' -> validate = true;
                case 'T' -> timeout = Duration.ofSeconds(intValue(v, "timeout"));
                default -> throw new AssertionError(option);
            }
        }
        if (parsed.operands().size() > 1) {
            throw new IllegalArgumentException("one host at most, got " + parsed.operands());
        }
        if (parsed.operands().size() == 1) {
            server = parsed.operands().getFirst();
        }
        return new PingPongOptions(server, port, device, ibPort, size, mtu, rxDepth, iters, sl, gid, validate, timeout);
    }

    /** True for the server side (no host given). */
    public boolean isServer() {
        return server == null;
    }

    /** rc_pingpong's {@code pp_mtu_to_enum}: 256, 512, 1024, 2048 or 4096 bytes. */
    static Mtu mtu(int bytes) {
        return switch (bytes) {
            case 256 -> Mtu.MTU_256;
            case 512 -> Mtu.MTU_512;
            case 1024 -> Mtu.MTU_1024;
            case 2048 -> Mtu.MTU_2048;
            case 4096 -> Mtu.MTU_4096;
            default -> throw new IllegalArgumentException("mtu must be 256, 512, 1024, 2048 or 4096, got " + bytes);
        };
    }

    private static int intValue(String text, String what) {
        long value = GetOpt.number(text, what);
        if (value < Integer.MIN_VALUE || value > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(what + " out of range: " + text);
        }
        return (int) value;
    }

    private static void require(boolean condition, String message) {
        if (!condition) {
            throw new IllegalArgumentException(message);
        }
    }
}
