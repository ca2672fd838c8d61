package dev.panamaverbs.perftest.wire;

import java.io.IOException;

/**
 * What perftest exchanges right after the TCP connection, before any verbs object is created:
 * the version ({@link VersionField}), then, for peers from 5.32, the system data
 * ({@link SystemData}), then, for peers from 5.1, the MTU ({@link MtuField}). The outcome is what
 * both sides go on with.
 *
 * @param peerVersion the peer's version text
 * @param cycleBuffer the larger of the two cycle buffers
 * @param cacheLine   the larger of the two cache line sizes
 * @param mtu         the ibv_mtu both run at
 */
public record Preamble(String peerVersion, int cycleBuffer, int cacheLine, int mtu) {

    /**
     * Runs the three steps on {@code channel} with this side's values; refuses (as perftest 4.5
     * does) a peer older than 5.70, and a peer that is not perftest at all.
     */
    public static Preamble run(OobLink channel, int cycleBuffer, int cacheLine, int mtu) throws IOException {
        String peerVersion = VersionField.decode(channel.exchange(VersionField.encode(VersionField.PERFTEST_4_5_VERSION),
                "the version exchange"));
        double number = VersionField.number(peerVersion);
        if (number == 0) {
            throw new ProtocolException("the peer is not perftest: its version field is \""
                    + KeyMessage.printable(peerVersion) + "\"");
        }
        if (number < VersionField.OLDEST_COMPATIBLE) {
            throw new ProtocolException("the peer's perftest version " + peerVersion + " is older than "
                    + VersionField.OLDEST_COMPATIBLE + ": perftest 4.5 refuses it too (\"Current implementation is not"
                    + " compatible with versions older than 5.70\")");
        }
        int cycle = cycleBuffer;
        int line = cacheLine;
        if (number >= 5.32) {
            cycle = Math.max(cycle, SystemData.decode(channel.exchange(SystemData.encode(cycleBuffer),
                    "the system-data exchange (page size)")));
            line = Math.max(line, SystemData.decode(channel.exchange(SystemData.encode(cacheLine),
                    "the system-data exchange (cache line size)")));
        }
        int theirMtu = MtuField.decode(channel.exchange(MtuField.encode(mtu), "the MTU exchange"));
        return new Preamble(peerVersion, cycle, line, MtuField.agreed(mtu, theirMtu));
    }
}
