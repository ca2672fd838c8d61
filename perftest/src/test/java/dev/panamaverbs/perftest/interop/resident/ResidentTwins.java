package dev.panamaverbs.perftest.interop.resident;

import static org.junit.jupiter.api.Assertions.fail;

import dev.panamaverbs.it.support.CommandPeer;
import dev.panamaverbs.it.support.LocalPeerProcess;
import dev.panamaverbs.it.support.Peer;
import dev.panamaverbs.it.support.PeerHost;
import dev.panamaverbs.it.support.PeerPairing.Listening;
import dev.panamaverbs.it.support.PeerProcess;
import dev.panamaverbs.it.support.TwoHosts;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The interop tests' Java twin as jobs of one resident twin per host ({@link ResidentTwin}): a
 * command that starts with {@value #COMMAND} runs there, every other command as before. Each
 * host's resident starts at its first job and serves the rest of the run: host A's as a child of
 * this JVM (killed when it exits), host B's as a run-long peer of B's agent (killed when the run
 * stops). {@code VERBS_RESIDENT_TWIN=0} gives every Java side its own JVM ({@code java -jar}) again.
 */
public final class ResidentTwins {
    /** The first word of a command that runs as a resident job; the twin's arguments follow. */
    public static final String COMMAND = "@RESIDENT_TWIN@";
    /** The residents' TCP port, on each host (the pairings' own ports start at 18600). */
    static final int PORT = 18590;
    /** The bound on a resident's start: a JVM under TCG, on a host that may be busy. */
    private static final long START_NANOS = 180_000_000_000L;
    /** As B's agent starts its peers: one program, so C1 and the serial GC start it fastest under TCG. */
    private static final List<String> JVM_OPTIONS = List.of("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xmx256m");

    private static LocalPeerProcess hostA;
    private static Peer hostB;

    private ResidentTwins() {}

    /** Whether the Java sides run as resident jobs ({@code VERBS_RESIDENT_TWIN=0}: not). */
    public static boolean enabled() {
        return !"0".equals(System.getenv("VERBS_RESIDENT_TWIN"));
    }

    /**
     * {@code host}, with {@value #COMMAND} commands run as jobs of that host's resident twin, which
     * runs the twin's classes from {@code jar} (the executable jar of this build).
     */
    public static PeerHost on(PeerHost host, Path jar) {
        return host instanceof Host ? host : new Host(host, jar, host.address(), host.gidIndexArgument());
    }

    /** {@code host}'s address and GID index argument, taken as it gave them. */
    private record Host(PeerHost host, Path jar, InetAddress address, String gidIndexArgument) implements PeerHost {
        @Override
        public PeerProcess start(String label, List<String> command, Listening listening, int port) {
            if (command.isEmpty() || !command.getFirst().equals(COMMAND)) {
                return host.start(label, command, listening, port);
            }
            return ResidentTwinProcess.start(label, host instanceof PeerHost.Remote ? "host B" : "host A", resident(),
                    command.subList(1, command.size()), listening, port);
        }

        /** This host's resident, started first if it is not running. */
        InetSocketAddress resident() {
            return host instanceof PeerHost.Remote remote ? residentOnB(remote.hosts(), jar) : residentOnA(jar);
        }
    }

    /**
     * Makes sure the residents of {@code hosts} (each from {@link #on}) run, warmed up, before a
     * pairing starts anything: a JVM's start and the library's first load take the host's one
     * emulated CPU for many seconds, and a C peer running beside them on that host can miss its
     * transport's deadlines (a C {@code ib_read_lat} server's READ responses came too late for the
     * Java client's retries once: {@code RETRY_EXC_ERR}).
     */
    public static void startOn(PeerHost... hosts) {
        for (PeerHost host : hosts) {
            if (host instanceof Host resident) {
                resident.resident();
            }
        }
    }

    /**
     * The resident's command line, the same on both hosts (they see the build at the same path):
     * the twin's jar (the library, the examples' command-line support, the twin), and where this
     * JVM found the resident's own classes and the two-host support it uses.
     */
    static List<String> command(Path jar) {
        List<String> classPath = new ArrayList<>(List.of(jar.toAbsolutePath().toString()));
        for (Class<?> from : List.of(ResidentTwin.class, Listening.class, org.junit.jupiter.api.Assertions.class,
                org.opentest4j.AssertionFailedError.class)) {
            String location = codeSource(from);
            if (!classPath.contains(location)) {
                classPath.add(location);
            }
        }
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.addAll(JVM_OPTIONS);
        command.addAll(List.of("--enable-native-access=ALL-UNNAMED", "-cp", String.join(java.io.File.pathSeparator, classPath),
                ResidentTwin.class.getName(), Integer.toString(PORT)));
        return command;
    }

    private static String codeSource(Class<?> type) {
        try {
            return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException("where " + type + " was loaded from", e);
        }
    }

    /** Host A's resident, started at the first call. */
    private static synchronized InetSocketAddress residentOnA(Path jar) {
        InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), PORT);
        if (hostA != null && hostA.isAlive()) {
            return address;
        }
        LocalPeerProcess process = LocalPeerProcess.start("resident twin (host A)", command(jar), () -> false);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                process.kill();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }));
        awaitListening(address, process::isAlive, process::describe);
        hostA = process;
        return address;
    }

    /** Host B's resident, started at the first call as a run-long command peer of B's agent. */
    private static synchronized InetSocketAddress residentOnB(TwoHosts hosts, Path jar) {
        InetSocketAddress address = new InetSocketAddress(hosts.peerAddress(), PORT);
        if (hostB != null && !hostB.hasExited()) {
            return address;
        }
        List<String> args = new ArrayList<>(List.of(Listening.NONE.name(), "0"));
        args.addAll(command(jar));
        Peer peer = hosts.startRunLongPeer(CommandPeer.class, args.toArray(String[]::new));
        awaitListening(address, () -> !peer.hasExited(), peer::output);
        hostB = peer;
        return address;
    }

    /** Waits until the resident at {@code address} takes a connection; fails with its output if it ends first or takes too long. */
    private static void awaitListening(InetSocketAddress address, java.util.function.BooleanSupplier alive,
            java.util.function.Supplier<String> output) {
        long deadline = System.nanoTime() + START_NANOS;
        while (true) {
            try (Socket probe = new Socket()) {
                probe.connect(address, 1000);
                return; // the resident takes a connection that sends no request as a job that went away
            } catch (IOException notYet) {
                if (!alive.getAsBoolean()) {
                    fail("the resident twin at " + address + " exited before it listened\n" + output.get());
                }
                if (System.nanoTime() - deadline > 0) {
                    fail("the resident twin at " + address + " did not listen within " + START_NANOS / 1_000_000_000L + " s\n"
                            + output.get());
                }
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                fail("interrupted while waiting for the resident twin at " + address);
            }
        }
    }
}
