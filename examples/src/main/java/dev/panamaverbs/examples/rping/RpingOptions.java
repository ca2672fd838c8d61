package dev.panamaverbs.examples.rping;

import dev.panamaverbs.examples.cli.GetOpt;
import java.time.Duration;
import java.util.Map;

/**
 * rping's options, with its defaults and checks: {@code -s} server or {@code -c} client (one is
 * required), {@code -a} address (the server binds to it, every address when absent; the client
 * connects to it), {@code -p} port (7174), {@code -C} ping count (0: for ever), {@code -S} ping
 * data size (64, from {@value #MIN_SIZE} to {@value #MAX_SIZE} - 1), {@code -v} print the ping
 * data, {@code -V} validate it, {@code -d} debug lines. {@code -T}/{@code --timeout} (seconds, 60)
 * is ours: the bound on every wait (resolution, connect, accept, each completion).
 */
public record RpingOptions(boolean server, String address, int port, int count, int size, boolean verbose,
                           boolean validate, boolean debug, Duration timeout) {
    /** rping's {@code RPING_MIN_BUFSIZE}: {@code sizeof "2147483647"} + {@code sizeof "rdma-ping-%d: "}. */
    public static final int MIN_SIZE = 11 + 15;
    /** rping's {@code RPING_BUFSIZE}; sizes must stay below it. */
    public static final int MAX_SIZE = 64 * 1024;

    private static final GetOpt GETOPT = new GetOpt("a:p:C:S:T:scvVd", Map.of("timeout", 'T'));

    /** The usage text. */
    public static final String USAGE = """
            rping -s [-vVd] [-S size] [-C count] [-a addr] [-p port] [-T seconds]
            rping -c [-vVd] [-S size] [-C count] -a addr [-p port] [-T seconds]
            \t-c\t\tclient side
            \t-s\t\tserver side
            \t-v\t\tdisplay ping data to stdout
            \t-V\t\tvalidate ping data
            \t-d\t\tdebug printfs
            \t-S size \tping data size
            \t-C count\tping count times
            \t-a addr\t\taddress
            \t-p port\t\tport
            \t-T seconds\tbound on every wait (default 60)
            """;

    /** Checks what rping checks. */
    public RpingOptions {
        require(port >= 0 && port <= 65535, "port must be in 0..65535, got " + port);
        require(count >= 0, "Invalid count " + count);
        require(size >= MIN_SIZE && size <= MAX_SIZE - 1,
                "Invalid size " + size + " (valid range is " + MIN_SIZE + " to " + MAX_SIZE + ")");
        require(server || address != null, "the client needs -a addr");
        require(timeout != null && !timeout.isNegative() && !timeout.isZero(), "timeout must be positive");
    }

    /** Parses the command line. */
    public static RpingOptions parse(String... args) {
        Boolean server = null;
        String address = null;
        int port = 7174;
        int count = 0;
        int size = 64;
        boolean verbose = false;
        boolean validate = false;
        boolean debug = false;
        Duration timeout = Duration.ofSeconds(60);
        GetOpt.Parsed parsed = GETOPT.parse(args);
        if (!parsed.operands().isEmpty()) {
            throw new IllegalArgumentException("unexpected operands " + parsed.operands());
        }
        for (GetOpt.Option option : parsed.options()) {
            String v = option.value();
            switch (option.letter()) {
                case 's' -> server = true;
                case 'c' -> server = false;
                case 'a' -> address = v;
                case 'p' -> port = intValue(v, "port");
                case 'C' -> count = intValue(v, "count");
                case 'S' -> size = intValue(v, "size");
                case 'v' -> verbose = true;
                case 'V' -> validate = true;
                case 'd' -> debug = true;
                case 'T' -> timeout = Duration.ofSeconds(intValue(v, "timeout"));
                default -> throw new AssertionError(option);
            }
        }
        if (server == null) {
            throw new IllegalArgumentException("give -s (server) or -c (client)");
        }
        return new RpingOptions(server, address, port, count, size, verbose, validate, debug, timeout);
    }

    /** A decimal number, as rping's {@code atoi} reads it (but garbage is an error here). */
    private static int intValue(String text, String what) {
        try {
            return Integer.parseInt(text.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("invalid " + what + ": '" + text + "'");
        }
    }

    private static void require(boolean condition, String message) {
        if (!condition) {
            throw new IllegalArgumentException(message);
        }
    }
}
