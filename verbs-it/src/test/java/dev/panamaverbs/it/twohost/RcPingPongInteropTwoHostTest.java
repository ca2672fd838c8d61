package dev.panamaverbs.it.twohost;

import dev.panamaverbs.it.support.PeerPairing;
import dev.panamaverbs.it.support.InteropPairingTests;
import dev.panamaverbs.testkit.DeviceCapability;
import dev.panamaverbs.it.support.InteropPeers;
import dev.panamaverbs.it.support.PeerHost;
import dev.panamaverbs.it.support.PeerPairing.Listening;
import dev.panamaverbs.it.support.PeerPairing.Outputs;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Our RcPingPong against rdma-core's {@code ibv_rc_pingpong} (ibverbs-utils), both ways, and
 * against itself, across the two hosts: the server on host B, the client on host A, each on its
 * rxe1 with RoCE v2 and the IPv4 GID its host picks by type ({@code -g}), {@code -c} on both sides
 * (the server checks what it received), the TCP exchange to B's link address. Both must exit 0,
 * print rc_pingpong's summary, and report no invalid data.
 */
class RcPingPongInteropTwoHostTest extends InteropPairingTests {
    private static final int ITERS = 200;
    private static final Pattern SUMMARY = Pattern.compile(
            "(?m)^" + 2 * 4096 * ITERS + " bytes in [0-9.]+ seconds = [0-9.]+ Mbit/sec\\n" + ITERS
                    + " iters in [0-9.]+ seconds = [0-9.]+ usec/iter$");

    RcPingPongInteropTwoHostTest() {
        super("");
    }

    @Override
    public void pair(String device, PeerHost serverHost, PeerHost clientHost, boolean javaServer, boolean javaClient) throws Exception {
        requireCapability(device, DeviceCapability.CONNECT_WITHOUT_CM); // rc_pingpong connects by ibv_modify_qp
        int port = InteropPeers.freeTcpPort();
        List<String> serverArgs = args(device, serverHost, port);
        List<String> clientArgs = new ArrayList<>(args(device, clientHost, port));
        clientArgs.add(serverHost.address().getHostAddress());
        Outputs outputs = run(serverHost, javaServer, serverArgs, clientHost, javaClient, clientArgs, Listening.TCP, port);
        for (String[] side : new String[][] {{"server", outputs.server()}, {"client", outputs.client()}}) {
            PeerPairing.expect(outputs, side[0], side[1], text -> SUMMARY.matcher(text).find(), "no rc_pingpong summary");
            PeerPairing.expect(outputs, side[0], side[1], text -> text.contains("remote address: LID"), "no remote address line");
            PeerPairing.expect(outputs, side[0], side[1], text -> !text.contains("invalid data"), "the -c check failed");
        }
    }

    private static List<String> args(String device, PeerHost host, int port) {
        return List.of("-d", device, "-i", "1", "-g", host.gidIndexArgument(), "-n", Integer.toString(ITERS), "-c",
                "-p", Integer.toString(port));
    }

    @Override
    public List<String> command(boolean java, List<String> args) {
        return java ? InteropPeers.java(InteropPeers.RC_PINGPONG, args) : InteropPeers.c("ibv_rc_pingpong", "ibverbs-utils", args);
    }
}
