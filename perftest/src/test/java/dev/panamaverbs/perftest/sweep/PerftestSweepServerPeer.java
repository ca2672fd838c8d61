package dev.panamaverbs.perftest.sweep;

import dev.panamaverbs.it.support.CommandPeer;
import dev.panamaverbs.it.support.PeerPairing.Listening;
import dev.panamaverbs.it.support.PeerSide;
import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;
import java.util.concurrent.TimeUnit;

/**
 * The servers of the two-host perftest sweep ({@link PerftestSweepTwoHostTest}), on host B: one
 * JVM for the whole sweep (a JVM start costs seconds under TCG), which runs each step's server
 * commands one after the other. Its arguments are the steps in order, each a line
 * {@code STEP INDEX PORT} followed by its commands, one per argument, words separated by spaces
 * ({@value CommandPeer#GID_INDEX} becomes the link device's GID index here). For each step it
 * publishes {@code listening-INDEX} once the step's first command listens on {@code PORT}, and
 * {@code done-INDEX} (the commands' exit statuses, space-separated) once they all ended. A
 * command still running after {@value #COMMAND_SECONDS} s is killed (exit status 124): a C
 * perftest server waits for ever for a client that failed.
 */
public final class PerftestSweepServerPeer {
    static final String STEP = "STEP";
    private static final long COMMAND_SECONDS = 90;

    private PerftestSweepServerPeer() {}

    public static void main(String[] args) throws Exception {
        String gidIndex = Integer.toString(PeerSide.device().gidIndex());
        int failed = 0;
        for (int i = 0; i < args.length; ) {
            String[] step = args[i++].split(" ");
            if (step.length != 3 || !step[0].equals(STEP)) {
                throw new IllegalArgumentException("expected 'STEP INDEX PORT', got " + args[i - 1]);
            }
            String index = step[1];
            int port = Integer.parseInt(step[2]);
            StringJoiner statuses = new StringJoiner(" ");
            boolean first = true;
            for (; i < args.length && !args[i].startsWith(STEP + " "); i++) {
                List<String> command = new ArrayList<>();
                for (String word : args[i].split(" ")) {
                    command.add(word.equals(CommandPeer.GID_INDEX) ? gidIndex : word);
                }
                int status = run(command, first ? "listening-" + index : null, port);
                failed += status == 0 ? 0 : 1;
                statuses.add(Integer.toString(status));
                first = false;
            }
            PeerSide.publish("done-" + index, statuses.toString());
        }
        System.exit(failed == 0 ? 0 : 1);
    }

    /** Runs {@code command}, publishing {@code listeningKey} (unless null) once it listens on {@code port}. */
    private static int run(List<String> command, String listeningKey, int port) throws Exception {
        System.out.println("==== host B: " + String.join(" ", command));
        System.out.flush();
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.INHERIT)
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(COMMAND_SECONDS);
        boolean published = listeningKey == null;
        while (!process.waitFor(published ? 200 : 50, TimeUnit.MILLISECONDS)) {
            if (!published && Listening.TCP.onThisHost(port)) {
                PeerSide.publish(listeningKey, port);
                published = true;
            }
            if (System.nanoTime() > deadline) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly().waitFor();
                System.out.println("==== host B: killed after " + COMMAND_SECONDS + " s");
                return 124;
            }
        }
        if (!published) {
            PeerSide.publish(listeningKey, "exited " + process.exitValue()); // the client will fail to connect: no wait for ever
        }
        return process.exitValue();
    }
}
