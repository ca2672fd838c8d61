package dev.panamaverbs.examples.rping;

import java.io.PrintStream;

/** One side of rping, client or server: its options, where it prints, and its {@code -d} lines. */
abstract sealed class RpingRole permits RpingClient, RpingServer {
    final RpingOptions options;
    final PrintStream out;
    final PrintStream err;

    RpingRole(RpingOptions options, PrintStream out, PrintStream err) {
        this.options = options;
        this.out = out;
        this.err = err;
    }

    /** Runs this side; returns the number of pings done or served. */
    abstract int run();

    /** Prints {@code line} with {@code -d}. */
    final void debug(String line) {
        if (options.debug()) {
            out.println(line);
        }
    }
}
