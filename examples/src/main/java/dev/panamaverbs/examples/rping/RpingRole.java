package dev.panamaverbs.examples.rping;

import java.io.PrintStream;

/** One side of rping, client or server: its options, where it prints, and its {@code -d} lines. */
sealed interface RpingRole permits RpingClient, RpingServer {
    /** The options rping was started with. */
    RpingOptions options();

    /** Where the side's output goes. */
    PrintStream out();

    /** Runs this side; returns the number of pings done or served. */
    int run();

    /** Prints {@code line} with {@code -d}. */
    default void debug(String line) {
        if (options().debug()) {
            out().println(line);
        }
    }
}
