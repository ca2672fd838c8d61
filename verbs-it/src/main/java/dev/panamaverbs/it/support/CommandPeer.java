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
 * An argument {@value #GID_INDEX} becomes the link device's RoCE v2 IPv4 GID index on B.
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
}
