package dev.panamaverbs.it.support;

import dev.panamaverbs.Context;
import dev.panamaverbs.Verbs;
import dev.panamaverbs.it.support.PeerPairing.Listening;
import dev.panamaverbs.it.support.PeerPairing.Outputs;
import dev.panamaverbs.it.support.PeerPairing.Peer;
import dev.panamaverbs.testkit.DeviceCapability;
import java.time.Duration;
import java.util.List;

/**
 * The three pairings of an interop test, each a two-host test: our Java server with the C client,
 * the C server with our Java client, and Java with Java. The server runs on host B
 * ({@link PeerHost#hostB}), the client on host A, each on its host's link device (rxe1), so every
 * exchange crosses the link. A subclass runs one pairing ({@link #pair}) and says how to start
 * either side ({@link #command}).
 */
public abstract class InteropPairingTests {
    public static final Duration TIMEOUT = Duration.ofSeconds(240);

    private final String tool;

    /** @param tool the tool's word in the peers' labels ({@code "rping"}), or "" for none */
    public InteropPairingTests(String tool) {
        this.tool = tool.isEmpty() ? "" : tool + " ";
    }

    @TwoHostTest
    public void javaServerWithCClient(TwoHosts hosts) throws Exception {
        pairOn(hosts, true, false);
    }

    @TwoHostTest
    public void cServerWithJavaClient(TwoHosts hosts) throws Exception {
        pairOn(hosts, false, true);
    }

    @TwoHostTest
    public void javaServerWithJavaClient(TwoHosts hosts) throws Exception {
        pairOn(hosts, true, true);
    }

    private void pairOn(TwoHosts hosts, boolean javaServer, boolean javaClient) throws Exception {
        RdmaCmSupport.requireRdmaCm();
        pair(hosts.device().name(), PeerHost.hostB(hosts), PeerHost.hostA(hosts), javaServer, javaClient);
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
        return PeerPairing.run(server, listening, port, client, TIMEOUT);
    }
}
