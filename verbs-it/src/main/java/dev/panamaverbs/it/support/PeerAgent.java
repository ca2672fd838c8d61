package dev.panamaverbs.it.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Host B's agent in a two-host run: starts the peer processes that tests on host A submit (see
 * {@link TwoHosts#startPeer}), and reports back through files in the shared run folder
 * ({@link PeerJob} has the layout). Each peer is a JVM with the device tests' module path,
 * class path and native access (the staged {@code java.args}), running a main class of the
 * test classes. The agent writes {@code agent-ready} when it is up, polls for jobs, kill
 * requests and finished peers every {@value #POLL_MILLIS} ms while a peer runs and every
 * {@value #IDLE_POLL_MILLIS} ms otherwise (under TCG every wake-up costs host CPU that host A
 * could use), and exits 0 when host A writes
 * {@code stop} (killing what still runs), or 1 after {@code --max-seconds} without one.
 * <pre>
 * java @STAGE/peer.args dev.panamaverbs.testkit.PeerAgent STAGE_DIR [--max-seconds N]
 * </pre>
 * It starts only Java main classes from the staged class path, and only on host B
 * ({@code VERBS_HOST=b}); it makes no native call itself. A {@link CommandPeer} job whose command
 * needs no device query it runs itself ({@link CommandPeer.Direct}): it starts the command, and
 * publishes {@value CommandPeer#LISTENING} once the command listens, as CommandPeer's JVM would;
 * that saves a JVM start per interop server.
 */
public final class PeerAgent {
    static final long POLL_MILLIS = 100;
    static final long IDLE_POLL_MILLIS = 400;
    /** JVM options of each peer: one test program, so C1 and the serial GC start it fastest under TCG. */
    static final List<String> PEER_JVM_OPTIONS = List.of("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xmx256m");
    /** The environment variable a peer finds its job folder in (what {@link PeerSide} reads). */
    static final String JOB_ENV = "VERBS_PEER_JOB_DIR";

    private final TwoHostEnvironment environment;
    private final Path stage;
    private final Map<Path, Process> running = new LinkedHashMap<>();
    /** The running command peers this agent runs itself and whose listener it has not seen yet. */
    private final Map<Path, CommandPeer.Direct> awaitingListener = new LinkedHashMap<>();

    private PeerAgent(TwoHostEnvironment environment, Path stage) {
        this.environment = environment;
        this.stage = stage;
    }

    /**
     * Runs the agent on host B until host A writes {@code stop} (or the optional limit passes).
     *
     * @param args {@code STAGE_DIR [--max-seconds N]}: the staged device tests (their {@code peer.args})
     * @throws Exception when the run folder cannot be read or written
     */
    public static void main(String[] args) throws Exception {
        if (args.length != 1 && !(args.length == 3 && args[1].equals("--max-seconds"))) {
            System.err.println("usage: PeerAgent STAGE_DIR [--max-seconds N]");
            System.exit(2);
        }
        TwoHostEnvironment environment = TwoHostEnvironment.fromSystem()
                .orElseThrow(() -> new IllegalStateException(TwoHostEnvironment.DIR_ENV + " is unset: not in a two-host run"));
        if (environment.isHostA()) {
            throw new IllegalStateException("the peer agent runs on host B, not on host " + environment.host());
        }
        Duration max = Duration.ofSeconds(args.length == 3 ? Long.parseLong(args[2]) : 3600);
        System.exit(new PeerAgent(environment, Path.of(args[0])).run(max));
    }

    private int run(Duration max) throws IOException, InterruptedException {
        Files.createDirectories(environment.jobs());
        long deadline = System.nanoTime() + max.toNanos();
        log("ready on " + environment.localAddress().getHostAddress() + " (" + environment.deviceName() + "), jobs in "
                + environment.jobs());
        PeerJob.writeAtomically(environment.agentReady(), ProcessHandle.current().pid() + "\n");
        while (!Files.exists(environment.stop())) {
            if (System.nanoTime() > deadline) {
                log("no stop from host A within " + max + ": stopping");
                stopAll();
                return 1;
            }
            startNewJobs();
            reapAndKill();
            Thread.sleep(running.isEmpty() ? IDLE_POLL_MILLIS : POLL_MILLIS);
        }
        log("host A is done: stopping");
        stopAll();
        return 0;
    }

    private void startNewJobs() throws IOException {
        List<Path> dirs;
        try (Stream<Path> listing = Files.list(environment.jobs())) {
            dirs = listing.filter(Files::isDirectory).sorted().toList();
        }
        for (Path dir : dirs) {
            PeerJob job = new PeerJob(dir);
            if (running.containsKey(dir) || Files.exists(job.started()) || !Files.exists(job.request())) {
                continue;
            }
            start(job);
        }
    }

    private void start(PeerJob job) {
        List<String> request = job.requestLines();
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.add("@" + stage.resolve("peer.args"));
        command.addAll(ChildJvmArchive.optionsFor(stage.resolve("peer.args").toString()));
        command.addAll(PEER_JVM_OPTIONS);
        command.add("-XX:ErrorFile=" + job.dir().resolve("hs_err_pid%p.log"));
        if (request.isEmpty()) {
            PeerJob.writeAtomically(job.output(), "peer agent: empty request\n");
            PeerJob.writeAtomically(job.exit(), "2\n");
            return;
        }
        String mainClass = request.getFirst();
        List<String> peerArgs = request.subList(1, request.size());
        Optional<CommandPeer.Direct> direct = CommandPeer.Direct.of(mainClass, peerArgs);
        if (direct.isPresent()) {
            command = new ArrayList<>(direct.get().command()); // what CommandPeer would start, started here
        } else {
            command.add(mainClass); // from the class path (a class of an exported package loads from its module)
            command.addAll(peerArgs);
        }
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(job.output().toFile()).redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
        builder.environment().put(JOB_ENV, job.dir().toString());
        try {
            Process process = builder.start();
            running.put(job.dir(), process);
            direct.filter(CommandPeer.Direct::listens).ifPresent(peer -> awaitingListener.put(job.dir(), peer));
            PeerJob.writeAtomically(job.started(), process.pid() + "\n");
            log("started " + job.dir().getFileName() + ": " + mainClass + " " + peerArgs + (direct.isPresent() ? " (its command, directly)" : ""));
        } catch (IOException | UncheckedIOException e) {
            PeerJob.writeAtomically(job.output(), "peer agent: could not start " + command + ": " + e + "\n");
            PeerJob.writeAtomically(job.exit(), "127\n");
        }
    }

    private void reapAndKill() {
        for (var it = running.entrySet().iterator(); it.hasNext(); ) {
            var entry = it.next();
            PeerJob job = new PeerJob(entry.getKey());
            Process process = entry.getValue();
            CommandPeer.Direct direct = awaitingListener.get(entry.getKey());
            if (direct != null && process.isAlive() && direct.listening().onThisHost(direct.port())) {
                PeerJob.writeAtomically(job.value(CommandPeer.LISTENING), Integer.toString(direct.port()));
                awaitingListener.remove(entry.getKey());
            }
            if (process.isAlive() && Files.exists(job.kill())) {
                log("killing " + job.dir().getFileName() + " (asked by host A)");
                kill(process);
            }
            if (!process.isAlive()) {
                int status = process.exitValue();
                PeerJob.writeAtomically(job.exit(), status + "\n");
                log(job.dir().getFileName() + " exited " + status);
                awaitingListener.remove(entry.getKey());
                it.remove();
            }
        }
    }

    private void stopAll() throws InterruptedException {
        for (Process process : running.values()) {
            kill(process);
        }
        for (Process process : running.values()) {
            process.waitFor();
        }
        reapAndKill();
    }

    private static void kill(Process process) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        try {
            process.waitFor(10, java.util.concurrent.TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void log(String message) {
        System.out.println("peer agent: " + message);
        System.out.flush();
    }
}
