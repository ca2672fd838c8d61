package dev.panamaverbs.it.support;

import dev.panamaverbs.it.support.PeerPairing.Listening;
import java.util.ArrayList;
import java.util.List;

/**
 * An interop test's peer program on host B: runs a command there (a C tool, or one of our examples
 * in its own JVM) with its output going where this peer's goes, publishes {@value #LISTENING} once
 * the command listens on the port it was started for, and exits with the command's status. B's
 * peer agent kills the command with it.
 * <pre>
 * CommandPeer NONE|TCP|RDMA_CM PORT COMMAND [ARGS...]
 * </pre>
 * An argument {@value #GID_INDEX} becomes the link device's RoCE v2 IPv4 GID index on B. A command
 * without one the agent runs itself, doing what this class does, without a JVM for it
 * ({@link Direct}); this class's own JVM runs only the commands that need the index.
 */
public final class CommandPeer {
    public static final String LISTENING = "listening";
    public static final String GID_INDEX = "@GID_INDEX@";

    private CommandPeer() {}

    public static void main(String[] args) throws Exception {
        Listening listening = Listening.valueOf(args[0]);
        int port = Integer.parseInt(args[1]);
        List<String> command = new ArrayList<>();
        for (String arg : List.of(args).subList(2, args.length)) {
            command.add(arg.equals(GID_INDEX) ? Integer.toString(PeerSide.device().gidIndex()) : arg);
        }
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.INHERIT)
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
        boolean published = listening == Listening.NONE;
        while (process.isAlive()) {
            if (!published && listening.onThisHost(port)) {
                PeerSide.publish(LISTENING, port);
                published = true;
            }
            Thread.sleep(published ? 200 : 100); // each look for a listener may start `rdma` on host B: as often as PeerPairing looks on host A
        }
        System.exit(process.exitValue());
    }

    /**
     * A command peer that B's peer agent runs itself, without a JVM of its own (under TCG a JVM
     * start costs seconds on the pairing's critical path): the command as given, and the listener
     * the agent looks for while it runs. Only a command without {@value #GID_INDEX} qualifies:
     * finding that index takes a device query, which the agent never makes.
     *
     * @param listening how the agent sees the command listen
     * @param port      the port it listens on
     * @param command   the command line
     */
    record Direct(Listening listening, int port, List<String> command) {
        /** The direct form of peer job {@code mainClass ARGS}, when it is a command peer that qualifies. */
        static java.util.Optional<Direct> of(String mainClass, List<String> args) {
            if (!mainClass.equals(CommandPeer.class.getName()) || args.size() < 3 || args.contains(GID_INDEX)) {
                return java.util.Optional.empty();
            }
            return java.util.Optional.of(new Direct(Listening.valueOf(args.get(0)), Integer.parseInt(args.get(1)),
                    List.copyOf(args.subList(2, args.size()))));
        }

        /** Whether the agent still has to look for the listener. */
        boolean listens() {
            return listening != Listening.NONE;
        }
    }
}
