package dev.panamaverbs.it.support;

import dev.panamaverbs.Context;
import dev.panamaverbs.Verbs;
import dev.panamaverbs.it.support.PeerPairing.Listening;
import dev.panamaverbs.it.support.PeerPairing.Outputs;
import dev.panamaverbs.it.support.PeerPairing.Peer;
import dev.panamaverbs.testkit.DeviceCapability;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * The three pairings of an interop test, each a two-host test: our Java server with the C client,
 * the C server with our Java client, and Java with Java. The server runs on host B
 * ({@link PeerHost#hostB}), the client on host A, each on its host's link device (rxe1), so every
 * exchange crosses the link. A subclass runs one pairing ({@link #pair}) and says how to start
 * either side ({@link #command}). A run outside the device suite picks its pairings itself
 * ({@link #pairOn}). The two cross pairings run at the same time ({@link CrossPairing}), Java
 * with Java alone.
 */
public abstract class InteropPairingTests {
    /** The default bound on a pairing: both sides must have exited within it. */
    public static final Duration TIMEOUT = Duration.ofSeconds(240);

    /** Which side of a pairing runs our Java program; the other runs the C tool. */
    public enum Pairing {
        /** Our Java server with the C client. */
        JAVA_SERVER_C_CLIENT(true, false),
        /** The C server with our Java client. */
        C_SERVER_JAVA_CLIENT(false, true),
        /** Our Java server with our Java client. */
        JAVA_SERVER_JAVA_CLIENT(true, true);

        /** Whether the server is our Java program. */
        public final boolean javaServer;
        /** Whether the client is our Java program. */
        public final boolean javaClient;

        Pairing(boolean javaServer, boolean javaClient) {
            this.javaServer = javaServer;
            this.javaClient = javaClient;
        }

        /** The pairings with the C tool on one side (all but Java with Java). */
        public static List<Pairing> withC() {
            return List.of(JAVA_SERVER_C_CLIENT, C_SERVER_JAVA_CLIENT);
        }

        /** {@code "Java server, C client"} ... */
        public String label() {
            return (javaServer ? "Java" : "C") + " server, " + (javaClient ? "Java" : "C") + " client";
        }
    }

    private final String tool;
    private final Duration timeout;

    /** @param tool the tool's word in the peers' labels ({@code "rping"}), or "" for none */
    public InteropPairingTests(String tool) {
        this(tool, TIMEOUT);
    }

    /**
     * @param tool the tool's word in the peers' labels ({@code "rping"}), or "" for none
     * @param timeout how long both sides of a pairing may take, from the server's start
     */
    public InteropPairingTests(String tool, Duration timeout) {
        this.tool = tool.isEmpty() ? "" : tool + " ";
        this.timeout = timeout;
    }

    @TwoHostTest
    @CrossPairing
    public void javaServerWithCClient(TwoHosts hosts) throws Exception {
        pairOn(hosts, Pairing.JAVA_SERVER_C_CLIENT);
    }

    @TwoHostTest
    @CrossPairing
    public void cServerWithJavaClient(TwoHosts hosts) throws Exception {
        pairOn(hosts, Pairing.C_SERVER_JAVA_CLIENT);
    }

    @TwoHostTest
    @ResourceLock(CrossPairing.PAIRINGS) // two Java JVMs: alone, after or before the cross pairings
    public void javaServerWithJavaClient(TwoHosts hosts) throws Exception {
        pairOn(hosts, Pairing.JAVA_SERVER_JAVA_CLIENT);
    }

    /**
     * Runs {@code pairing} across {@code hosts}: the server on host B, the client on host A.
     *
     * @param hosts the two hosts
     * @param pairing which side runs our Java program
     * @throws Exception when the pairing failed (an {@link AssertionError} with both outputs)
     */
    public final void pairOn(TwoHosts hosts, Pairing pairing) throws Exception {
        RdmaCmSupport.requireRdmaCm();
        pair(hosts.device().name(), PeerHost.hostB(hosts), PeerHost.hostA(hosts), pairing.javaServer, pairing.javaClient);
    }

    /**
     * Skips the pairing (a JUnit assumption naming the capability) unless this host's
     * {@code device} reports {@code capability}: e.g. {@link DeviceCapability#CONNECT_WITHOUT_CM}
     * for the tools that connect their queue pairs by {@code ibv_modify_qp}, which iWARP refuses.
     *
     * @param device the link device's name
     * @param capability what the pairing needs
     */
    public static void requireCapability(String device, DeviceCapability capability) {
        try (Context context = Verbs.device(device).orElseThrow(() -> new AssertionError(device + " is not listed")).open()) {
            capability.require(context);
        }
    }

    /**
     * Runs one pairing on the link device {@code device} (the same name on both hosts), the server
     * on {@code serverHost} and the client on {@code clientHost}, and checks both sides' outputs.
     */
    public abstract void pair(String device, PeerHost serverHost, PeerHost clientHost, boolean javaServer, boolean javaClient)
            throws Exception;

    /** The command line of our Java program ({@code java}) or of the C tool, with {@code args}. */
    public abstract List<String> command(boolean java, List<String> args);

    /** Runs the server on its host, then the client on its host once the server listens on {@code port}; returns both outputs. */
    public final Outputs run(PeerHost serverHost, boolean javaServer, List<String> serverArgs, PeerHost clientHost, boolean javaClient,
            List<String> clientArgs, Listening listening, int port) throws InterruptedException {
        Peer server = new Peer(serverHost, (javaServer ? "java" : "C") + " " + tool + "server", command(javaServer, serverArgs));
        Peer client = new Peer(clientHost, (javaClient ? "java" : "C") + " " + tool + "client", command(javaClient, clientArgs));
        return PeerPairing.run(server, listening, port, client, timeout);
    }
}
