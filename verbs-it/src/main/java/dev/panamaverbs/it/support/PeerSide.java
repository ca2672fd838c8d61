package dev.panamaverbs.it.support;

import dev.panamaverbs.testkit.TestDevice;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.Objects;

/**
 * What a peer program (the main class a two-host test starts on host B with
 * {@link TwoHosts#startPeer}) uses to talk to its test: publish values the test waits for
 * ({@link Peer#awaitValue}), and find its address and RDMA device on the link. Its exit status
 * and output (stdout and stderr) reach the test as they are: print what helps, exit non-zero on
 * failure.
 * <pre>{@code
 * public static void main(String[] args) throws Exception {
 *     try (EndpointExchange.Listener listener = EndpointExchange.listen(new InetSocketAddress(PeerSide.localAddress(), 0))) {
 *         PeerSide.publish("port", listener.localAddress().getPort());
 *         EndpointInfo client = listener.accept(mine, Duration.ofSeconds(60));
 *         ...
 *     }
 * }
 * }</pre>
 */
public final class PeerSide {
    private PeerSide() {}

    /**
     * Publishes {@code value} (its {@code toString()}, one line) under {@code key} (letters,
     * digits, {@code . _ -}) for the test on host A. A key is published once.
     *
     * @throws IllegalStateException outside a peer process
     * @param key the key
     * @param value the value
     */
    public static void publish(String key, Object value) {
        String text = Objects.requireNonNull(value, "value").toString();
        if (!key.matches("[A-Za-z0-9._-]+") || text.contains("\n")) {
            throw new IllegalArgumentException("a key is [A-Za-z0-9._-]+ and a value one line, got " + key + "=" + text);
        }
        PeerJob.writeAtomically(job().value(key), text);
    }

    /**
     * This host's address on the link between the two hosts (198.18.0.2 on host B).
     *
     * @return this host's address on the link between the two hosts (198.18.0.2 on host B).
     */
    public static InetAddress localAddress() {
        return environment().localAddress();
    }

    /**
     * The other host's address on the link (198.18.0.1, host A, where the test runs).
     *
     * @return the other host's address on the link (198.18.0.1, host A, where the test runs).
     */
    public static InetAddress peerAddress() {
        return environment().peerAddress();
    }

    /**
     * The RDMA device on the link (rxe1, or siw1 with the siw provider), its port 1 and its RoCE v2 IPv4 GID chosen by
     * type (0 on a device without one).
     *
     * @return the RDMA device on the link, its port 1 and its RoCE v2 IPv4 GID chosen by type (else 0)
     */
    public static TestDevice device() {
        return TwoHosts.linkDevice(environment().deviceName());
    }

    private static TwoHostEnvironment environment() {
        return TwoHostEnvironment.fromSystem()
                .orElseThrow(() -> new IllegalStateException("not in a two-host run (" + TwoHostEnvironment.DIR_ENV + " is unset)"));
    }

    private static PeerJob job() {
        String dir = System.getenv(PeerAgent.JOB_ENV);
        if (dir == null || dir.isBlank()) {
            throw new IllegalStateException("not a peer process: " + PeerAgent.JOB_ENV + " is unset (peers are started by TwoHosts.startPeer)");
        }
        return new PeerJob(Path.of(dir));
    }
}
