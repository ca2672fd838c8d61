package dev.panamaverbs.it.support;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;
import java.util.function.Predicate;

/**
 * A server and a client as two processes, the one shape every interop test has: start the
 * server, wait until it listens, start the client, wait for both exits (each bounded; whatever
 * is still running then is killed), and check both exited 0. Every failure shows both peers'
 * commands and outputs; a passing run prints them too (the test report keeps them).
 *
 * <p>Each peer names its {@link PeerHost}: the interop tests put the server on host B
 * (198.18.0.2) and the client on host A, where the test runs, so every pairing crosses the link.
 */
public final class PeerPairing {
    /** How a server's readiness is seen on its own host. */
    public enum Listening {
        /** A client: it does not listen. */
        NONE,
        /** A TCP socket in state LISTEN on the port ({@code /proc/net/tcp} and {@code tcp6}). */
        TCP,
        /** An rdma_cm identifier listening on the port ({@code rdma resource show cm_id src-port PORT}). */
        RDMA_CM;

        private static final String TCP_LISTEN = "0A";

        /** Whether something listens on {@code port} on the host this runs on. */
        public boolean onThisHost(int port) {
            return switch (this) {
                case NONE -> false;
                case TCP -> tcpListening(port);
                case RDMA_CM -> rdmaCmListening(port);
            };
        }

        private static boolean tcpListening(int port) {
            String local = String.format(Locale.ROOT, ":%04X", port);
            for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
                try {
                    for (String line : Files.readAllLines(Path.of(table))) {
                        String[] fields = line.strip().split("\\s+");
                        if (fields.length > 3 && fields[1].endsWith(local) && fields[3].equals(TCP_LISTEN)) {
                            return true;
                        }
                    }
                } catch (IOException e) {
                    // no IPv6 table on this kernel: the other one decides
                }
            }
            return false;
        }

        private static boolean rdmaCmListening(int port) {
            try {
                return Commands.output(10, "rdma", "resource", "show", "cm_id", "src-port", Integer.toString(port))
                        .contains("state LISTEN");
            } catch (IllegalStateException notYet) {
                return false; // asked again until the caller's deadline: not listening (yet)
            }
        }
    }

    /** A peer: where it runs, its name and its command. */
    public record Peer(PeerHost host, String label, List<String> command) {}

    /** Both peers' outputs after both exited 0. */
    public record Outputs(String server, String client) {}

    private PeerPairing() {}

    /**
     * Runs {@code server} (ready once it listens on {@code port}, as {@code listening} sees it),
     * then {@code client}; each must exit 0 within {@code timeout}.
     */
    public static Outputs run(Peer server, Listening listening, int port, Peer client, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        PairingPhases phases = new PairingPhases();
        try (PeerProcess serverProcess = server.host().start(server.label(), server.command(), listening, port)) {
            awaitListening(serverProcess, listening, port, deadline, phases);
            try (PeerProcess clientProcess = client.host().start(client.label(), client.command(), Listening.NONE, 0)) {
                phases.mark("client started");
                OptionalInt clientExit = clientProcess.awaitExit(left(deadline));
                phases.mark("client exited");
                clientProcess.firstOutputAt().ifPresent(at -> phases.markAt("client's first output", at));
                OptionalInt serverExit = serverProcess.awaitExit(clientExit.isPresent() ? left(deadline) : Duration.ZERO);
                phases.mark("server exited");
                String report = serverProcess.describe() + clientProcess.describe();
                phases.mark("outputs read");
                System.out.print(report + phases.line(server.label(), client.label()));
                check(server.label(), serverExit, timeout, report);
                check(client.label(), clientExit, timeout, report);
                return new Outputs(serverProcess.output(), clientProcess.output());
            }
        }
    }

    /**
     * Runs {@code server} and {@code client} as {@link #run} does; once the survivor's output
     * contains {@code runningMark} (the exchange is under way) it lets them work for
     * {@code runFor}, kills one of them ({@code killServer}) and checks the survivor notices: it
     * must exit non-zero before {@code timeout} (from the start) passes. Returns its output.
     */
    public static String killMidRun(Peer server, Listening listening, int port, Peer client, boolean killServer, String runningMark,
                             Duration runFor, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        try (PeerProcess serverProcess = server.host().start(server.label(), server.command(), listening, port)) {
            awaitListening(serverProcess, listening, port, deadline, new PairingPhases());
            try (PeerProcess clientProcess = client.host().start(client.label(), client.command(), Listening.NONE, 0)) {
                PeerProcess victim = killServer ? serverProcess : clientProcess;
                PeerProcess survivor = killServer ? clientProcess : serverProcess;
                while (!survivor.output().contains(runningMark) && survivor.isAlive() && victim.isAlive()
                        && System.nanoTime() < deadline) {
                    Thread.sleep(100);
                }
                Thread.sleep(runFor.toMillis());
                if (!victim.isAlive() || !survivor.isAlive()) {
                    fail("the run ended before " + victim.label() + " could be killed\n" + serverProcess.describe()
                            + clientProcess.describe());
                }
                victim.kill();
                OptionalInt exit = survivor.awaitExit(left(deadline));
                String report = serverProcess.describe() + clientProcess.describe();
                System.out.print(report);
                if (exit.isEmpty()) {
                    fail(survivor.label() + " did not notice that " + victim.label() + " was killed: still running after "
                            + timeout.toSeconds() + " s\n" + report);
                }
                if (exit.getAsInt() == 0) {
                    fail(survivor.label() + " exited 0 after " + victim.label() + " was killed\n" + report);
                }
                return survivor.output();
            }
        }
    }

    /**
     * Polls until the server listens; fails with its output if it exits first or the deadline passes.
     * Marks in {@code phases} when the server's process started, printed first and listened.
     */
    private static void awaitListening(PeerProcess server, Listening listening, int port, long deadline, PairingPhases phases)
            throws InterruptedException {
        boolean started = false;
        boolean printed = false;
        while (true) {
            if (!started && server.isStarted()) {
                phases.mark("server started");
                started = true;
            }
            if (!printed && !server.output().isEmpty()) {
                phases.mark("server's first output");
                printed = true;
            }
            if (server.isListening()) {
                phases.mark("server listening");
                return;
            }
            if (!server.isAlive()) {
                fail(server.label() + " exited before it listened on " + listening + " port " + port + "\n" + server.describe());
            }
            if (System.nanoTime() > deadline) {
                server.kill();
                fail(server.label() + " did not listen on " + listening + " port " + port + " in time\n" + server.describe());
            }
            Thread.sleep(100);
        }
    }

    private static void check(String label, OptionalInt exit, Duration timeout, String report) {
        if (exit.isEmpty()) {
            fail(label + " did not exit within " + timeout.toSeconds() + " s and was killed\n" + report);
        }
        if (exit.getAsInt() != 0) {
            fail(label + " exited " + exit.getAsInt() + "\n" + report);
        }
    }

    /** Fails with both outputs unless {@code check} holds for {@code text}. */
    public static void expect(Outputs outputs, String which, String text, Predicate<String> check, String what) {
        if (!check.test(text)) {
            fail(which + ": " + what + "\n---- server\n" + outputs.server() + "---- client\n" + outputs.client());
        }
    }

    private static Duration left(long deadline) {
        return Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
    }
}
