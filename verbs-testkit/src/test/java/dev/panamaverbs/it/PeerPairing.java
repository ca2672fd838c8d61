package dev.panamaverbs.it;

import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;
import java.util.function.Predicate;

/**
 * A server and a client as two processes, the one shape every interop test has: start the
 * server, wait until it listens, start the client, wait for both exits (each bounded; whatever
 * is still running then is killed), and check both exited 0. Every failure shows both peers'
 * commands and outputs; a passing run prints them too (the test report keeps them).
 *
 * <p>The hosts are parameters: today both are {@link PeerHost#LOCAL} (one VM, rxe0 at
 * 10.0.2.15); across two VMs the server's host becomes the second VM's {@link PeerHost}, and the
 * client is given the server's address there (198.18.0.2). Nothing else changes.
 */
final class PeerPairing {
    /** How the server's readiness is seen from its host. */
    enum Listening {
        TCP, RDMA_CM;

        boolean on(PeerHost host, int port) {
            return this == TCP ? host.tcpListening(port) : host.rdmaCmListening(port);
        }
    }

    /** A peer: where it runs, its name and its command. */
    record Peer(PeerHost host, String label, List<String> command) {}

    /** Both peers' outputs after both exited 0. */
    record Outputs(String server, String client) {}

    private PeerPairing() {}

    /**
     * Runs {@code server} (ready once it listens on {@code port}, as {@code listening} sees it),
     * then {@code client}; each must exit 0 within {@code timeout}.
     */
    static Outputs run(Peer server, Listening listening, int port, Peer client, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        try (PeerProcess serverProcess = server.host().start(server.label(), server.command())) {
            awaitListening(serverProcess, server.host(), listening, port, deadline);
            try (PeerProcess clientProcess = client.host().start(client.label(), client.command())) {
                OptionalInt clientExit = clientProcess.awaitExit(left(deadline));
                OptionalInt serverExit = serverProcess.awaitExit(clientExit.isPresent() ? left(deadline) : Duration.ZERO);
                String report = serverProcess.describe() + clientProcess.describe();
                System.out.print(report);
                check(server.label(), serverExit, timeout, report);
                check(client.label(), clientExit, timeout, report);
                return new Outputs(serverProcess.output(), clientProcess.output());
            }
        }
    }

    /**
     * Runs {@code server} and {@code client} as {@link #run} does, lets them work for
     * {@code runFor}, kills one of them ({@code killServer}) and checks the survivor notices: it
     * must exit non-zero before {@code timeout} (from the start) passes. Returns its output.
     */
    static String killMidRun(Peer server, Listening listening, int port, Peer client, boolean killServer, Duration runFor,
                             Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        try (PeerProcess serverProcess = server.host().start(server.label(), server.command())) {
            awaitListening(serverProcess, server.host(), listening, port, deadline);
            try (PeerProcess clientProcess = client.host().start(client.label(), client.command())) {
                Thread.sleep(runFor.toMillis());
                PeerProcess victim = killServer ? serverProcess : clientProcess;
                PeerProcess survivor = killServer ? clientProcess : serverProcess;
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

    /** Polls until the server listens; fails with its output if it exits first or the deadline passes. */
    private static void awaitListening(PeerProcess server, PeerHost host, Listening listening, int port, long deadline)
            throws InterruptedException {
        while (!listening.on(host, port)) {
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
    static void expect(Outputs outputs, String which, String text, Predicate<String> check, String what) {
        if (!check.test(text)) {
            fail(which + ": " + what + "\n---- server\n" + outputs.server() + "---- client\n" + outputs.client());
        }
    }

    private static Duration left(long deadline) {
        return Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
    }
}
