package dev.panamaverbs.examples.cli;

import java.io.PrintStream;
import java.util.function.Function;

/**
 * The frame of a command-line twin of a C tool: parse the options (on a bad one, print the
 * error and the usage text, exit status 1), run the tool with them, and on a failure print it
 * with its chain of causes (exit status 1).
 *
 * @param <O> the parsed options
 * @param name     the program name that prefixes an option error ({@code "rping: ..."})
 * @param parser   parses the arguments; throws {@link IllegalArgumentException} on a bad one
 * @param usage    the usage text printed after an option error
 * @param body     the tool itself
 * @param failure  the line's prefix for a failure, given the options
 */
public record ToolMain<O>(String name, Function<String[], O> parser, String usage, Body<O> body,
        Function<O, String> failure) {

    /**
     * The tool run once its options are parsed.
     *
     * @param <O> the parsed options
     */
    @FunctionalInterface
    public interface Body<O> {
        /**
         * Runs the tool.
         *
         * @param options the parsed options
         * @param out     where the tool's output goes
         * @param err     where its errors go
         * @return the exit status
         * @throws Exception on a failure, reported by {@link ToolMain#run}
         */
        int run(O options, PrintStream out, PrintStream err) throws Exception;
    }

    /**
     * Parses {@code args} and runs the tool.
     *
     * @param args the command-line arguments
     * @param out  where the output (and the usage text) goes
     * @param err  where the errors go
     * @return the exit status: the body's, or 1 on an option error or a failure
     */
    public int run(String[] args, PrintStream out, PrintStream err) {
        O options;
        try {
            options = parser.apply(args);
        } catch (IllegalArgumentException e) {
            err.println(name + ": " + e.getMessage());
            out.print(usage);
            return 1;
        }
        try {
            return body.run(options, out, err);
        } catch (Exception e) {
            err.println(failure.apply(options) + e);
            for (Throwable cause = e.getCause(); cause != null; cause = cause.getCause()) {
                err.println("  caused by: " + cause);
            }
            return 1;
        }
    }
}
