package dev.panamaverbs.it.support;

import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;

/** A peer program on host B: a {@link CommandPeer} job, seen through the testkit's {@link Peer}. */
final class RemotePeerProcess implements PeerProcess {
    private static final Duration EXIT_REPORT = Duration.ofSeconds(10);

    private final String label;
    private final List<String> command;
    private final Peer peer;

    RemotePeerProcess(String label, List<String> command, Peer peer) {
        this.label = label;
        this.command = List.copyOf(command);
        this.peer = peer;
    }

    @Override
    public String label() {
        return label;
    }

    @Override
    public String output() {
        return peer.output();
    }

    @Override
    public boolean isAlive() {
        return !peer.hasExited();
    }

    @Override
    public boolean isListening() {
        return peer.value(CommandPeer.LISTENING).isPresent();
    }

    @Override
    public OptionalInt awaitExit(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!peer.hasExited()) {
            if (System.nanoTime() > deadline) {
                kill();
                return OptionalInt.empty();
            }
            Thread.sleep(50);
        }
        return OptionalInt.of(peer.awaitExit(EXIT_REPORT).exitStatus());
    }

    @Override
    public void kill() {
        peer.kill();
    }

    @Override
    public String describe() {
        return "---- " + label + " (" + peer.name() + "): " + String.join(" ", command) + "\n" + output() + "---- end of " + label + "\n";
    }
}
