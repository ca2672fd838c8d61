package dev.panamaverbs.it.support;

import dev.panamaverbs.it.support.PeerPairing.Listening;
import dev.panamaverbs.testkit.TestDevice;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * One of the two hosts an interop test runs its peers on: host A is where the test runs (its
 * peers are child processes), host B the other VM on the link (its peers are started by B's peer
 * agent through {@link CommandPeer}). {@link PeerPairing} is the same for either.
 */
public interface PeerHost {
    /** Host A, this test's own host, at 198.18.0.1 on the link. */
    static PeerHost hostA(TwoHosts hosts) {
        return new Local(hosts.localAddress(), hosts.device());
    }

    /** Host B, the other end of the link, at 198.18.0.2. */
    static PeerHost hostB(TwoHosts hosts) {
        return new Remote(hosts);
    }

    /** This host's address on the link. */
    InetAddress address();

    /** The {@code -g} argument for the link device's RoCE v2 IPv4 GID index, as this host sees it. */
    String gidIndexArgument();

    /**
     * Starts {@code command} here as peer {@code label}; the peer counts as listening once
     * {@code listening} sees {@code port} open here ({@link Listening#NONE} for a client).
     */
    PeerProcess start(String label, List<String> command, Listening listening, int port);

    /** Host A: child processes of this JVM. */
    record Local(InetAddress address, TestDevice device) implements PeerHost {
        @Override
        public String gidIndexArgument() {
            return Integer.toString(device.gidIndex());
        }

        @Override
        public PeerProcess start(String label, List<String> command, Listening listening, int port) {
            return LocalPeerProcess.start(label, command, () -> listening.onThisHost(port));
        }
    }

    /** Host B: each peer is a {@link CommandPeer} job of B's peer agent, running the command there. */
    record Remote(TwoHosts hosts) implements PeerHost {
        @Override
        public InetAddress address() {
            return hosts.peerAddress();
        }

        @Override
        public String gidIndexArgument() {
            return CommandPeer.GID_INDEX; // B's own index, filled in there
        }

        @Override
        public PeerProcess start(String label, List<String> command, Listening listening, int port) {
            List<String> args = new ArrayList<>(List.of(listening.name(), Integer.toString(port)));
            args.addAll(command);
            return new RemotePeerProcess(label, command, hosts.startPeer(CommandPeer.class, args.toArray(String[]::new)));
        }
    }
}
