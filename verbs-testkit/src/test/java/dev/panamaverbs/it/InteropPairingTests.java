package dev.panamaverbs.it;

import dev.panamaverbs.it.PeerPairing.Listening;
import dev.panamaverbs.it.PeerPairing.Outputs;
import dev.panamaverbs.it.PeerPairing.Peer;
import dev.panamaverbs.testkit.DeviceTest;
import dev.panamaverbs.testkit.TestDevice;
import java.time.Duration;
import java.util.List;

/**
 * The three pairings of an interop test, each a device test: our Java server with the C client,
 * the C server with our Java client, and Java with Java. A subclass runs one pairing
 * ({@link #pair}) and says how to start either side ({@link #command}).
 */
abstract class InteropPairingTests {
    static final Duration TIMEOUT = Duration.ofSeconds(240);

    private final String tool;

    /** @param tool the tool's word in the peers' labels ({@code "rping"}), or "" for none */
    InteropPairingTests(String tool) {
        this.tool = tool.isEmpty() ? "" : tool + " ";
    }

    @DeviceTest
    void javaServerWithCClient(TestDevice device) throws Exception {
        pairOn(device, true, false);
    }

    @DeviceTest
    void cServerWithJavaClient(TestDevice device) throws Exception {
        pairOn(device, false, true);
    }

    @DeviceTest
    void javaServerWithJavaClient(TestDevice device) throws Exception {
        pairOn(device, true, true);
    }

    private void pairOn(TestDevice device, boolean javaServer, boolean javaClient) throws Exception {
        RdmaCmSupport.requireRdmaCm();
        pair(device, RdmaCmSupport.deviceAddress(device).getHostAddress(), javaServer, javaClient);
    }

    /** Runs one pairing on {@code device}, whose IPv4 address is {@code address}, and checks both sides' outputs. */
    abstract void pair(TestDevice device, String address, boolean javaServer, boolean javaClient) throws Exception;

    /** The command line of our Java program ({@code java}) or of the C tool, with {@code args}. */
    abstract List<String> command(boolean java, List<String> args);

    /** Runs the server, then the client once the server listens on {@code port}; returns both outputs. */
    final Outputs run(boolean javaServer, List<String> serverArgs, boolean javaClient, List<String> clientArgs,
            Listening listening, int port) throws InterruptedException {
        Peer server = new Peer(PeerHost.LOCAL, (javaServer ? "java" : "C") + " " + tool + "server",
                command(javaServer, serverArgs));
        Peer client = new Peer(PeerHost.LOCAL, (javaClient ? "java" : "C") + " " + tool + "client",
                command(javaClient, clientArgs));
        return PeerPairing.run(server, listening, port, client, TIMEOUT);
    }
}
