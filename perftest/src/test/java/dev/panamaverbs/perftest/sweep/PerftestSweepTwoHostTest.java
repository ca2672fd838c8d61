package dev.panamaverbs.perftest.sweep;

import dev.panamaverbs.it.support.CommandPeer;
import dev.panamaverbs.it.support.InteropPeers;
import dev.panamaverbs.it.support.LocalPeerProcess;
import dev.panamaverbs.perftest.interop.PerftestInterop;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panamaverbs.perftest.sweep.PerftestSweepPlan.Size;
import dev.panamaverbs.perftest.sweep.PerftestSweepPlan.Step;
import dev.panamaverbs.it.support.Peer;
import dev.panamaverbs.testkit.TestDevice;
import dev.panamaverbs.it.support.TwoHostExtension;
import dev.panamaverbs.it.support.TwoHosts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code ./verbs bench --perftest}: perftest's write_lat, send_lat, write_bw and send_bw over a
 * sweep of sizes (2 B to 64 KiB), across the two hosts (server on host B, client on host A, over
 * the link's rxe1), in four pairings in the same boot: C/C (Debian's perftest 4.5 against
 * itself), Java/Java (our twin, the perftest module's jar), Java client with C server and C
 * client with Java server; each several rounds ({@link PerftestSweepPlan}). The clients' result
 * rows give the medians and the ratios to C/C ({@link PerftestSweepResults}), written to
 * {@code target/perftest-sweep/} ({@code VERBS_SWEEP_OUT}) for benchmarks/README.md and the chart.
 *
 * <p>Sizes 2 B to 64 KiB (write_lat to 4 KiB: {@link PerftestSweepPlan#sizes}). A benchmark, not a device test: tag {@value #TAG} only, so neither Surefire nor
 * {@code ./verbs test} runs it (the root pom excludes the tag; the device launcher includes only
 * {@code device}); scripts/perftest-sweep.sh launches it. It fails when a step did not give
 * a row for every size, never on the figures themselves.
 *
 * <p>Environment: {@code VERBS_SWEEP_ROUNDS} (default 3), {@code VERBS_SWEEP_TESTS}
 * (comma-separated, default the four above; {@code read_lat} and {@code atomic_lat} run only when
 * named: {@link PerftestSweepPlan#ONE_SIDED_TESTS}), {@code VERBS_SWEEP_BUDGET_SECONDS} (default 1500: no step
 * starts later; the results say how many ran). The files are rewritten after every step, so a
 * run cut short still leaves what it measured.
 */
@Tag(PerftestSweepTwoHostTest.TAG)
@ExtendWith(TwoHostExtension.class)
class PerftestSweepTwoHostTest {
    static final String TAG = "perftest-sweep";
    /** The first step waits for host B's JVMs too (the agent's and the server peer's, under TCG). */
    private static final Duration FIRST_LISTEN = Duration.ofSeconds(300);
    private static final Duration LISTEN = Duration.ofSeconds(200);
    private static final Duration CLIENT = Duration.ofSeconds(120);
    /** How long a C client keeps trying while the Java server's next run is not listening yet. */
    private static final Duration CONNECT_RETRIES = Duration.ofSeconds(60);

    @Test
    void sweep(TwoHosts hosts) throws Exception {
        String rounds = System.getenv().getOrDefault("VERBS_SWEEP_ROUNDS", "3");
        String tests = System.getenv().getOrDefault("VERBS_SWEEP_TESTS", String.join(",", PerftestSweepPlan.TESTS));
        PerftestSweepPlan plan = new PerftestSweepPlan(Arrays.asList(tests.split(",")), Integer.parseInt(rounds));
        TestDevice device = hosts.device();
        Path out = Path.of(System.getenv().getOrDefault("VERBS_SWEEP_OUT", "target/perftest-sweep")).toAbsolutePath();
        Files.createDirectories(out);

        List<String> serverArgs = new ArrayList<>();
        for (Step step : plan.steps()) {
            serverArgs.add(PerftestSweepServerPeer.STEP + " " + step.index() + " " + step.port());
            for (List<String> command : serverCommands(step, device.name())) {
                serverArgs.add(String.join(" ", command));
            }
        }
        long budget = Long.parseLong(System.getenv().getOrDefault("VERBS_SWEEP_BUDGET_SECONDS", "1500"));
        Instant started = Instant.now();
        Peer servers = hosts.startPeer(PerftestSweepServerPeer.class, serverArgs.toArray(String[]::new));
        PerftestSweepResults results = new PerftestSweepResults();
        List<String> failures = new ArrayList<>();
        StringBuilder clientLog = new StringBuilder();
        String server = hosts.peerAddress().getHostAddress();
        int ran = 0;
        for (Step step : plan.steps()) {
            if (Duration.between(started, Instant.now()).toSeconds() > budget) {
                failures.add("stopped after " + ran + " of " + plan.steps().size() + " steps: the budget of " + budget
                        + " s (VERBS_SWEEP_BUDGET_SECONDS) was spent");
                servers.kill();
                break;
            }
            long stepStart = System.nanoTime();
            servers.awaitValue("listening-" + step.index(), step.index() == 0 ? FIRST_LISTEN : LISTEN);
            StringBuilder output = new StringBuilder();
            String clientFailure = runClients(step, device, server, output);
            String serverStatuses = servers.awaitValue("done-" + step.index(), LISTEN);
            List<PerftestRows.Row> rows = PerftestRows.parse(output.toString(), PerftestRows.figures(step.test()));
            List<Integer> sizes = rows.stream().map(PerftestRows.Row::size).toList();
            List<Integer> expected = step.sizes().stream().map(Size::bytes).toList();
            String label = String.format("step %d/%d round %d %s %s", step.index() + 1, plan.steps().size(), step.round() + 1,
                    step.test(), step.pairing().label);
            if (clientFailure != null || !serverStatuses.matches("0( 0)*") || !sizes.equals(expected)) {
                failures.add(label + ": client " + (clientFailure == null ? "ok" : clientFailure) + ", server exit statuses "
                        + serverStatuses + ", rows for " + sizes + " (expected " + expected + ")");
            }
            results.add(step.test(), step.pairing(), step.round(), step.measured(rows));
            clientLog.append("==== ").append(label).append('\n').append(output);
            System.out.printf("==> %s: %.1f s, rows for %s%n", label, (System.nanoTime() - stepStart) / 1e9, sizes);
            ran++;
            write(out, plan, ran, started, results, failures, clientLog, servers);
        }
        if (ran == plan.steps().size()) {
            servers.awaitExit(LISTEN);
        }
        System.out.println(write(out, plan, ran, started, results, failures, clientLog, servers));
        System.out.println("==> results in " + out);
        assertTrue(failures.isEmpty(), "steps failed:\n" + String.join("\n", failures));
    }

    /** Writes the results so far into {@code out}; returns the Markdown. */
    private static String write(Path out, PerftestSweepPlan plan, int ran, Instant started, PerftestSweepResults results,
                                List<String> failures, CharSequence clientLog, Peer servers) throws IOException {
        Duration took = Duration.between(started, Instant.now());
        String header = "Two-host perftest sweep, " + Instant.now() + ": " + plan.rounds() + " rounds of " + plan.tests()
                + ", four pairings each, server on host B, client on host A (rxe1 over the link): " + ran + " of "
                + plan.steps().size() + " steps in " + took.toSeconds() + " s. Java " + Runtime.version() + ", VERBS_VM_TCG_THREAD="
                + System.getenv().getOrDefault("VERBS_VM_TCG_THREAD", "single") + ". Sizes and iterations: "
                + String.join("; ", plan.tests().stream().map(test -> test + " " + PerftestSweepPlan.sizes(test)).toList())
                + "; the warm-up size runs first in every step and is not reported.\n";
        String markdown = header + results.markdown()
                + (failures.isEmpty() ? "" : "\nFailed steps:\n" + String.join("\n", failures) + "\n");
        Files.writeString(out.resolve("results.md"), markdown);
        Files.writeString(out.resolve("samples.csv"), results.samplesCsv());
        Files.writeString(out.resolve("medians.csv"), results.mediansCsv());
        Files.writeString(out.resolve("clients.log"), clientLog);
        Files.writeString(out.resolve("servers.log"), servers.output());
        return markdown;
    }

    /** Runs the step's client(s) on this host, output into {@code output}; null when they succeeded, else why not. */
    private static String runClients(Step step, TestDevice device, String server, StringBuilder output)
            throws InterruptedException {
        if (step.pairing().javaClient) {
            List<String> command = java(step, device.name(), Integer.toString(device.gidIndex()));
            command.add(server);
            return runOnce("Java client", command, output);
        }
        for (int i = 0; i < step.sizes().size(); i++) {
            List<String> command = c(step, i, device.name(), Integer.toString(device.gidIndex()));
            command.add(server);
            long deadline = System.nanoTime() + CONNECT_RETRIES.toNanos();
            while (true) {
                StringBuilder attempt = new StringBuilder();
                String failure = runOnce("C client", command, attempt);
                // Refused: the Java server's run for this size does not listen yet (its previous run just ended).
                if (failure != null && attempt.indexOf("Couldn't connect") >= 0 && System.nanoTime() < deadline) {
                    Thread.sleep(100);
                    continue;
                }
                output.append(attempt);
                if (failure != null) {
                    return failure;
                }
                break;
            }
        }
        return null;
    }

    @SuppressWarnings("try") // LocalPeerProcess.close() may be interrupted: this method throws that on
    private static String runOnce(String label, List<String> command, StringBuilder output) throws InterruptedException {
        try (LocalPeerProcess process = LocalPeerProcess.start(label, command, () -> false)) {
            OptionalInt exit = process.awaitExit(CLIENT);
            output.append(process.output());
            if (exit.isEmpty()) {
                return label + " killed after " + CLIENT.toSeconds() + " s: " + String.join(" ", command);
            }
            return exit.getAsInt() == 0 ? null : label + " exited " + exit.getAsInt() + ": " + String.join(" ", command);
        }
    }

    /** The server side of {@code step} on host B: one Java process, or one C perftest per size. */
    private static List<List<String>> serverCommands(Step step, String device) {
        if (step.pairing().javaServer) {
            return List.of(java(step, device, CommandPeer.GID_INDEX));
        }
        List<List<String>> commands = new ArrayList<>();
        for (int i = 0; i < step.sizes().size(); i++) {
            commands.add(c(step, i, device, CommandPeer.GID_INDEX));
        }
        return commands;
    }

    /**
     * Our twin over all the step's sizes in one JVM ({@code --sizes}). A benchmark: the JVM's
     * defaults (tiered JIT, its default GC), not the interop tests' quick-start flags.
     */
    private static List<String> java(Step step, String device, String gidIndex) {
        Path jar = Path.of(System.getProperty(PerftestInterop.PERFTEST_JAR, "perftest/target/verbs-perftest.jar")).toAbsolutePath();
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("no " + jar + " (mvn install builds it)");
        }
        return new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-jar", jar.toString(), step.test(), "-d", device, "-x", gidIndex, "-F",
                "-p", Integer.toString(step.port()), "--sizes=" + step.sizesOption(), "--timeout=60"));
    }

    /** Debian's perftest for size {@code i} of the step, on port {@code port + i}. */
    private static List<String> c(Step step, int i, String device, String gidIndex) {
        Size size = step.sizes().get(i);
        return new ArrayList<>(InteropPeers.c("ib_" + step.test(), "perftest", List.of("-d", device, "-x", gidIndex, "-F",
                "-s", Integer.toString(size.bytes()), "-n", Integer.toString(size.iterations()), "-p",
                Integer.toString(step.port() + i))));
    }
}
