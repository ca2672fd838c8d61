package dev.panamaverbs.it.support;

import dev.panamaverbs.testkit.TestDevice;
import dev.panamaverbs.Context;
import dev.panamaverbs.values.GidEntry;
import dev.panamaverbs.Verbs;
import dev.panamaverbs.cm.RdmaCm;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Assertions;

/**
 * The two hosts of a two-host test, as the {@link TwoHostExtension} injects them: this JVM runs
 * on host A (198.18.0.1); {@link #startPeer} runs a program on host B (198.18.0.2). The hosts are
 * two VMs joined by one virtual link with an rxe device on each end ({@link #device()}); the test
 * and its peers find each other on that link, e.g. through an
 * {@link dev.panamaverbs.cm.EndpointExchange} over TCP, or through values the peer publishes.
 * Closing kills every peer still running (the extension does it when the test ends).
 */
public final class TwoHosts implements AutoCloseable {
    /** How long {@link #startPeer} waits for host B's agent (it boots next to host A, under TCG). */
    public static final Duration AGENT_TIMEOUT = Duration.ofSeconds(240);
    /** A timeout for a peer's start-up (a JVM on host B under TCG): the time to its first published value. */
    public static final Duration PEER_START_TIMEOUT = Duration.ofSeconds(120);
    /**
     * How long {@link #startPeer} waits for host B's agent when B runs its share of the one-host
     * tests before it ({@link HostShare}: about 300 s of tests in a full run under TCG).
     */
    public static final Duration HOST_B_SHARE_TIMEOUT = Duration.ofSeconds(1500);

    /** How long a request to the host's link controller may take. */
    private static final Duration HOST_CONTROL_TIMEOUT = Duration.ofSeconds(30);
    /** Held while this JVM resolves host B once ({@link #awaitAgent}): a concurrent test waits for that resolve. */
    private static final Object NEIGHBOUR_LOCK = new Object();
    /** Whether this JVM has resolved host B once; guarded by {@link #NEIGHBOUR_LOCK}. */
    private static boolean neighbourPrimed;
    private static final AtomicInteger JOBS = new AtomicInteger();
    /** When waiting for host B's share of the one-host tests ends (System.nanoTime; 0: not waited yet). */
    private static final AtomicLong SHARE_DEADLINE = new AtomicLong();

    private final TwoHostEnvironment environment;
    private final List<Peer> peers = new ArrayList<>();

    TwoHosts(TwoHostEnvironment environment) {
        this.environment = Objects.requireNonNull(environment, "environment");
    }

    /**
     * This host's (A's) address on the link: 198.18.0.1.
     *
     * @return this host's (A's) address on the link: 198.18.0.1.
     */
    public InetAddress localAddress() {
        return environment.localAddress();
    }

    /**
     * Host B's address on the link: 198.18.0.2.
     *
     * @return host B's address on the link: 198.18.0.2.
     */
    public InetAddress peerAddress() {
        return environment.peerAddress();
    }

    /**
     * {@link #startPeer} for an rdma_cm test: first fails (never skips) unless rdma_cm works on
     * host A ({@link RdmaCmSupport#failWithoutRdmaCm}).
     *
     * @param mainClass the peer's main class
     * @param args its arguments
     * @return the started peer
     */
    public Peer startRdmaCmPeer(Class<?> mainClass, String... args) {
        RdmaCmSupport.failWithoutRdmaCm("host A");
        return startPeer(mainClass, args);
    }

    /**
     * The server a peer on host B listens on: host B's address and the port the peer announces
     * as {@code portName}, waited for up to {@link #PEER_START_TIMEOUT}.
     *
     * @param peer the peer, started by {@link #startPeer}
     * @param portName the name the peer announces its port under
     * @return the peer's server address
     */
    public InetSocketAddress peerServer(Peer peer, String portName) {
        return new InetSocketAddress(peerAddress(), peer.awaitInt(portName, PEER_START_TIMEOUT));
    }

    /**
     * The RDMA device on the link on this host (rxe1, or siw1 with the siw provider; the peer's has the same name on B),
     * port 1, RoCE v2 IPv4 GID index (0 on a device without one).
     *
     * @return the RDMA device on the link on this host, port 1, its RoCE v2 IPv4 GID index (else 0)
     */
    public TestDevice device() {
        return linkDevice(environment.deviceName());
    }

    static TestDevice linkDevice(String name) {
        if (Verbs.device(name).isEmpty()) {
            throw new IllegalStateException("the two-host link's RDMA device " + name + " is missing (devices: "
                    + Verbs.devices().stream().map(dev.panamaverbs.Device::name).toList() + ")");
        }
        try (Context context = Verbs.device(name).orElseThrow().open()) {
            // RoCE: the RoCE v2 IPv4 GID by type. A device with none (iWARP, e.g. siw1: MAC-based
            // GIDs, connections through rdma_cm by IP address) uses index 0, as DeviceChoice does.
            int gidIndex = context.roceV2Ipv4Gid(1).map(GidEntry::index).orElse(0);
            return new TestDevice(name, 1, gidIndex);
        }
    }

    /**
     * Starts {@code mainClass}'s {@code main(args)} in a new JVM on host B, with the device
     * tests' module path and native access and the test classes on the class path (the class
     * must be among the staged test classes or in an exported package of a staged module; it
     * runs outside the module it is patched into on host A, so it uses public API only). Returns at once; the peer's output, published values and exit status
     * come back through {@link Peer}.
     *
     * @throws org.opentest4j.AssertionFailedError when host B's agent is not up within
     *                                             {@link #AGENT_TIMEOUT}, or {@link #HOST_B_SHARE_TIMEOUT}
     *                                             when B runs a share of the one-host tests first (with B's console log)
     * @param mainClass the main class
     * @param args the args
     * @return starts {@code mainClass}'s {@code main(args)} in a new JVM on host B, with the device tests' module path and native access and the test classes on the class path (the class must be among the staged test classes or in an exported package of a staged module; it runs outside the module it is patched into on host A, so it uses public API only).
     */
    public Peer startPeer(Class<?> mainClass, String... args) {
        Peer peer = submit(mainClass, args);
        synchronized (peers) {
            peers.add(peer);
        }
        return peer;
    }

    /**
     * As {@link #startPeer}, for a peer that serves the rest of the run rather than one test:
     * closing these hosts leaves it running, and B's agent kills it when host A's run stops
     * (the interop tests' resident twin).
     *
     * @param mainClass the main class
     * @param args the args
     * @return the peer, running on host B until the run stops or it is killed
     */
    public Peer startRunLongPeer(Class<?> mainClass, String... args) {
        return submit(mainClass, args);
    }

    private Peer submit(Class<?> mainClass, String... args) {
        for (String arg : args) {
            if (arg.contains("\n")) {
                throw new IllegalArgumentException("peer arguments are one line each, got " + arg);
            }
        }
        awaitAgent();
        String id = String.format("%03d-%s-%d", JOBS.incrementAndGet(), mainClass.getSimpleName(), ProcessHandle.current().pid());
        PeerJob job = new PeerJob(environment.jobs().resolve(id));
        try {
            Files.createDirectories(job.dir());
        } catch (IOException e) {
            throw new UncheckedIOException("creating " + job.dir(), e);
        }
        List<String> request = new ArrayList<>(List.of(mainClass.getName()));
        request.addAll(List.of(args));
        Peer peer = new Peer(job, mainClass.getSimpleName() + " (job " + id + " on host B)");
        PeerJob.writeAtomically(job.request(), String.join("\n", request) + "\n");
        return peer;
    }

    /**
     * Pulls host B's cable: QEMU's {@code set_link} takes B's link NIC down from outside, as a
     * pulled cable would (B's guest sees the carrier go; nothing B sends or is sent arrives). Put
     * it back with {@link #plugPeerCable()}, in a {@code finally}: later tests need the link.
     *
     * @throws org.opentest4j.AssertionFailedError when the host's link controller is not running or QEMU refused
     */
    public void pullPeerCable() {
        hostControl("link-down");
    }

    /**
     * Puts host B's cable back ({@code set_link} up).
     *
     * @throws org.opentest4j.AssertionFailedError when the host's link controller is not running or QEMU refused
     */
    public void plugPeerCable() {
        hostControl("link-up");
    }

    /**
     * Freezes host B: QEMU stops the whole VM (QMP {@code stop}), which host A cannot tell from a
     * power cut: B neither sends nor answers. {@link #thawPeerHost()} lets it go on (in a
     * {@code finally}: B's agent serves the later tests).
     *
     * @throws org.opentest4j.AssertionFailedError when the host's link controller is not running or QEMU refused
     */
    public void freezePeerHost() {
        hostControl("freeze");
    }

    /**
     * Lets a frozen host B go on (QMP {@code cont}).
     *
     * @throws org.opentest4j.AssertionFailedError when the host's link controller is not running or QEMU refused
     */
    public void thawPeerHost() {
        hostControl("thaw");
    }

    /** Asks the host's link controller to do {@code action} to host B, and waits (bounded) for its answer. */
    private void hostControl(String action) {
        Path folder = environment.dir().resolve("link-control"); // harness LinkControl.FOLDER
        if (!Files.isDirectory(folder)) {
            Assertions.fail("the host's link controller is not running (" + folder + " is missing; scripts/vm.sh starts it"
                    + " when harness/target/harness.jar is built)");
        }
        String name = String.format("%03d-%s", JOBS.incrementAndGet(), action);
        PeerJob.writeAtomically(folder.resolve(name + ".request"), "b " + action + "\n");
        Path done = folder.resolve(name + ".done");
        long deadline = System.nanoTime() + HOST_CONTROL_TIMEOUT.toNanos();
        while (true) {
            var answer = PeerJob.readIfPresent(done);
            if (answer.isPresent()) {
                if (!answer.get().strip().equals("ok")) {
                    Assertions.fail("host B " + action + ": " + answer.get().strip());
                }
                return;
            }
            if (System.nanoTime() > deadline) {
                Assertions.fail("host B " + action + ": no answer from the host's link controller within " + HOST_CONTROL_TIMEOUT);
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while asking for " + action, e);
            }
        }
    }

    /**
     * Waits for host B's agent; fails with B's console and output when B is gone or late. The
     * first time in this JVM, resolves host B once through rdma_cm ({@link RdmaCmSupport#resolveOnce}),
     * so that the link's first ARP exchange, which has taken over 10 s on a loaded host, is not
     * spent inside the first test's own timeout (a 20 s resolve timed out there once, on 6.12).
     */
    private void awaitAgent() {
        agentProblem(environment).ifPresent(why -> Assertions.fail(why));
        synchronized (NEIGHBOUR_LOCK) {
            if (neighbourPrimed) {
                return;
            }
            neighbourPrimed = true;
            if (RdmaCm.isAvailable()) {
                try {
                    RdmaCmSupport.resolveOnce(peerAddress());
                } catch (RuntimeException e) {
                    System.out.println("two hosts: resolving host B once before the tests failed (the tests' own resolves will say more): " + e);
                }
            }
        }
    }

    /**
     * Waits for host B's agent, up to {@link #AGENT_TIMEOUT}, or, when B runs a share of the
     * one-host tests first ({@link HostShare}), up to {@link #HOST_B_SHARE_TIMEOUT} after this
     * JVM's first wait.
     *
     * @return empty once the agent is up, else why not (with the ends of B's console and output)
     */
    static Optional<String> agentProblem(TwoHostEnvironment environment) {
        long deadline = System.nanoTime() + AGENT_TIMEOUT.toNanos();
        Duration timeout = AGENT_TIMEOUT;
        if (Files.exists(environment.hostBShare())) {
            // Counted from this JVM's first wait, so that a share that never ends costs that once,
            // not once per two-host test.
            SHARE_DEADLINE.compareAndSet(0, System.nanoTime() + HOST_B_SHARE_TIMEOUT.toNanos());
            if (SHARE_DEADLINE.get() - deadline > 0) {
                deadline = SHARE_DEADLINE.get();
                timeout = HOST_B_SHARE_TIMEOUT;
            }
        }
        while (!Files.exists(environment.agentReady())) {
            Path peerRun = environment.peerRunDir();
            boolean gone = Files.exists(peerRun.resolve("guest-exit")) || Files.exists(peerRun.resolve("guest-error"));
            if (gone || System.nanoTime() > deadline) {
                return Optional.of("host B's peer agent is not up " + (gone ? "(host B already stopped)" : "after " + timeout)
                        + tail(peerRun.resolve("console.log"), "host B's console") + tail(peerRun.resolve("output"), "host B's output"));
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for host B", e);
            }
        }
        return Optional.empty();
    }

    private static String tail(Path file, String what) {
        List<String> lines = PeerJob.readIfPresent(file).map(text -> text.lines()
                .map(line -> line.replaceAll("\u001b\\[[0-9;?]*[A-Za-z]|\r", "")).toList()).orElse(List.of());
        return "\n---- " + what + " (" + file + "), last lines ----\n"
                + String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
    }

    /** The peers started so far, for failure reports. */
    List<Peer> peers() {
        synchronized (peers) {
            return List.copyOf(peers);
        }
    }

    /** Kills every peer still running. */
    @Override
    public void close() {
        for (Peer peer : peers()) {
            peer.close();
        }
    }
}
