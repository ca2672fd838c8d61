package dev.panamaverbs.it;

import dev.panamaverbs.it.PeerPairing.Listening;
import dev.panamaverbs.it.PeerPairing.Outputs;
import dev.panamaverbs.testkit.TestDevice;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Our RcPingPong against rdma-core's {@code ibv_rc_pingpong} (ibverbs-utils), both ways, and
 * against itself: separate processes on rxe0, RoCE v2 with the IPv4 GID picked by type
 * ({@code -g}), {@code -c} on both sides (the server checks what it received), the TCP exchange
 * over rxe0's own address. Both must exit 0, print rc_pingpong's summary, and report no invalid page.
 */
class RcPingPongInteropDeviceTest extends InteropPairingTests {
    private static final int ITERS = 200;
    private static final Pattern SUMMARY = Pattern.compile(
            "(?m)^" + 2 * 4096 * ITERS + " bytes in [0-9.]+ seconds = [0-9.]+ Mbit/sec\\n" + ITERS
                    + " iters in [0-9.]+ seconds = [0-9.]+ usec/iter$");

    RcPingPongInteropDeviceTest() {
        super("");
    }

    @Override
    void pair(TestDevice device, String address, boolean javaServer, boolean javaClient) throws Exception {
        int port = InteropPeers.freeTcpPort();
        List<String> common = List.of("-d", device.name(), "-i", Integer.toString(device.port()),
                "-g", Integer.toString(InteropPeers.roceV2Ipv4GidIndex(device)), "-n", Integer.toString(ITERS), "-c",
                "-p", Integer.toString(port));
        List<String> clientArgs = new ArrayList<>(common);
        clientArgs.add(address);
        Outputs outputs = run(javaServer, common, javaClient, clientArgs, Listening.TCP, port);
        for (String[] side : new String[][] {{"server", outputs.server()}, {"client", outputs.client()}}) {
            PeerPairing.expect(outputs, side[0], side[1], text -> SUMMARY.matcher(text).find(), "no rc_pingpong summary");
            PeerPairing.expect(outputs, side[0], side[1], text -> text.contains("remote address: LID"), "no remote address line");
            PeerPairing.expect(outputs, side[0], side[1], text -> !text.contains("invalid data"), "the -c check failed");
        }
    }

    @Override
    List<String> command(boolean java, List<String> args) {
        return java ? InteropPeers.java(InteropPeers.RC_PINGPONG, args) : InteropPeers.c("ibv_rc_pingpong", "ibverbs-utils", args);
    }
}
