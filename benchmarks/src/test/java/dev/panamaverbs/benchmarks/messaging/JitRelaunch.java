package dev.panamaverbs.benchmarks.messaging;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs a peer program under the JIT that host A's JVM runs (tiered, up to C2): the peer agent
 * starts every peer C1 only ({@code -XX:TieredStopAtLevel=1}, the fastest start under TCG), and
 * below C2 each downcall that captures errno allocates a segment in the JDK's binding (40 B,
 * docs/poller.md), so host B's allocation figures would measure C1, not the path. The program
 * starts itself again with the same command line, {@code -XX:TieredStopAtLevel=4} in place of
 * {@code 1}, and exits with the child's status; a class-data-sharing archive the agent asked to
 * be written at exit is left to this JVM (two writers of one file).
 */
final class JitRelaunch {
    private static final String C1_ONLY = "-XX:TieredStopAtLevel=1";
    private static final String UP_TO_C2 = "-XX:TieredStopAtLevel=4";
    private static final String ARCHIVE_AT_EXIT = "-XX:ArchiveClassesAtExit=";

    private JitRelaunch() {}

    /**
     * In a C1-only JVM: runs this JVM's command line again under the JIT, waits for it and exits
     * with its status (never returns). Elsewhere: returns at once, and the caller runs the program.
     *
     * @throws IOException when the child cannot be started
     * @throws InterruptedException when interrupted while it runs
     */
    static void ifC1Only() throws IOException, InterruptedException {
        if (!ManagementFactory.getRuntimeMXBean().getInputArguments().contains(C1_ONLY)) {
            return;
        }
        ProcessHandle.Info self = ProcessHandle.current().info();
        List<String> command = new ArrayList<>();
        command.add(self.command().orElseThrow(() -> new IllegalStateException("this JVM's command is unknown")));
        for (String argument : self.arguments().orElseThrow(() -> new IllegalStateException("this JVM's arguments are unknown"))) {
            if (!argument.startsWith(ARCHIVE_AT_EXIT)) {
                command.add(argument.equals(C1_ONLY) ? UP_TO_C2 : argument);
            }
        }
        Process child = new ProcessBuilder(command).inheritIO().start();
        // The agent stops a peer by destroying it: the child goes with it.
        Runtime.getRuntime().addShutdownHook(new Thread(child::destroy));
        System.exit(child.waitFor());
    }
}
