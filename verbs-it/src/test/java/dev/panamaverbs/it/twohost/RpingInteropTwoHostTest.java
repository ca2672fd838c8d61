package dev.panamaverbs.it.twohost;

import dev.panamaverbs.it.support.PeerPairing;
import dev.panamaverbs.it.support.InteropPairingTests;
import dev.panamaverbs.it.support.InteropPeers;
import dev.panamaverbs.it.support.PeerHost;
import dev.panamaverbs.it.support.PeerPairing.Listening;
import dev.panamaverbs.it.support.PeerPairing.Outputs;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Our RPing against rdma-core's {@code rping} (rdmacm-utils), both ways, and against itself,
 * across the two hosts: the server on host B, the client on host A, connected by rdma_cm to B's
 * link address, {@code -C} pings of {@code -S}
 * bytes with {@code -v} (both print the data) and {@code -V} (the client compares the echo and
 * fails on a mismatch). Both must exit 0, and both must have printed every ping's data: the
 * client what came back, the server what it read.
 */
class RpingInteropTwoHostTest extends InteropPairingTests {
    private static final int COUNT = 10;
    private static final int SIZE = 100;
    /** rdma_cm ports of our own, one per test: a port still in use by a finished test's identifier never collides. */
    private static final AtomicInteger NEXT_PORT = new AtomicInteger(7300);

    RpingInteropTwoHostTest() {
        super("rping");
    }

    @Override
    public void pair(String device, PeerHost serverHost, PeerHost clientHost, boolean javaServer, boolean javaClient) throws Exception {
        int port = NEXT_PORT.getAndIncrement();
        String address = serverHost.address().getHostAddress();
        // Both sides need the same -S: rping's server READs the client's whole buffer into its own.
        List<String> serverArgs = List.of("-s", "-a", address, "-p", Integer.toString(port), "-S", Integer.toString(SIZE),
                "-v", "-V");
        List<String> clientArgs = List.of("-c", "-a", address, "-p", Integer.toString(port), "-C", Integer.toString(COUNT),
                "-S", Integer.toString(SIZE), "-v", "-V");
        Outputs outputs = run(serverHost, javaServer, serverArgs, clientHost, javaClient, clientArgs, Listening.RDMA_CM, port);
        for (int ping = 0; ping < COUNT; ping++) {
            String data = expectedData(ping);
            PeerPairing.expect(outputs, "client", outputs.client(), text -> text.contains("ping data: " + data + "\n"),
                    "ping " + ping + " did not come back as '" + data + "'");
            PeerPairing.expect(outputs, "server", outputs.server(), text -> text.contains("server ping data: " + data + "\n"),
                    "the server did not read ping " + ping + " as '" + data + "'");
        }
        PeerPairing.expect(outputs, "client", outputs.client(), text -> !text.contains("data mismatch"), "-V found a mismatch");
    }

    /**
     * rping's ping data, written out independently of the example's own code: "rdma-ping-N: ",
     * then letters from 'A' + N mod 58 on, cycling through 'A'..'z', to {@code SIZE - 1} bytes.
     */
    static String expectedData(int ping) {
        StringBuilder data = new StringBuilder("rdma-ping-" + ping + ": ");
        int c = 'A' + ping % 58;
        while (data.length() < SIZE - 1) {
            data.append((char) c);
            c = c == 'z' ? 'A' : c + 1;
        }
        return data.toString();
    }

    @Override
    public List<String> command(boolean java, List<String> args) {
        return java ? InteropPeers.java(InteropPeers.RPING, args) : InteropPeers.c("rping", "rdmacm-utils", args);
    }
}
