package dev.panamaverbs.it.support;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * What the two-VM harness ({@code scripts/vm.sh --peer}) tells each guest through its
 * environment: the shared coordination folder, which host this is, the link addresses, the
 * link's RDMA device and host B's run folder (console log, output, exit status).
 */
record TwoHostEnvironment(Path dir, String host, InetAddress localAddress, InetAddress peerAddress, String deviceName,
                          Path peerRunDir) {
    static final String DIR_ENV = "VERBS_TWO_HOST_DIR";
    static final String HOST_ENV = "VERBS_HOST";
    static final String LOCAL_ENV = "VERBS_LOCAL_ADDRESS";
    static final String PEER_ENV = "VERBS_PEER_ADDRESS";
    static final String DEVICE_ENV = "VERBS_TWO_HOST_DEVICE";
    static final String PEER_RUN_ENV = "VERBS_PEER_RUN_DIR";

    /** This JVM's environment, if the harness set one up. */
    static Optional<TwoHostEnvironment> fromSystem() {
        return read(System::getenv);
    }

    /**
     * The environment found through {@code env}; empty when {@value #DIR_ENV} is unset.
     *
     * @throws IllegalStateException when it is set but the rest is missing or wrong: the harness is broken
     */
    static Optional<TwoHostEnvironment> read(UnaryOperator<String> env) {
        String dir = env.apply(DIR_ENV);
        if (dir == null || dir.isBlank()) {
            return Optional.empty();
        }
        Path folder = Path.of(dir);
        if (!Files.isDirectory(folder)) {
            throw new IllegalStateException(DIR_ENV + "=" + dir + " is not a folder");
        }
        return Optional.of(new TwoHostEnvironment(folder, required(env, HOST_ENV), address(env, LOCAL_ENV),
                address(env, PEER_ENV), required(env, DEVICE_ENV), Path.of(required(env, PEER_RUN_ENV))));
    }

    private static String required(UnaryOperator<String> env, String name) {
        String value = env.apply(name);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException(DIR_ENV + " is set but " + name + " is not: the two-host harness is broken");
        }
        return value.strip();
    }

    /** An IP literal (never a name lookup). */
    private static InetAddress address(UnaryOperator<String> env, String name) {
        String value = required(env, name);
        if (!value.matches("[0-9.]+|[0-9A-Fa-f:]+")) {
            throw new IllegalStateException(name + "=" + value + " is not an IP address");
        }
        try {
            return InetAddress.getByName(value);
        } catch (UnknownHostException e) {
            throw new IllegalStateException(name + "=" + value + " is not an IP address", e);
        }
    }

    /** Host A runs the tests; host B runs the agent and the peers. */
    boolean isHostA() {
        return host.equals("a");
    }

    Path agentReady() {
        return dir.resolve("agent-ready");
    }

    Path stop() {
        return dir.resolve("stop");
    }

    /**
     * Written by host B's scripts/device-run.sh when B starts its share of the one-host tests
     * ({@link HostShare}); its agent starts when the share is done.
     */
    Path hostBShare() {
        return dir.resolve("host-b-share");
    }

    Path jobs() {
        return dir.resolve("jobs");
    }
}
