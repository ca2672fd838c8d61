package dev.panamaverbs.it.support;

import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;

/**
 * A peer program on host B: a {@link CommandPeer} job, seen through the testkit's {@link Peer}.
 *
 * @param label what the test calls the program
 * @param command the program and its arguments (copied)
 * @param peer the job on host B
 */
record RemotePeerProcess(String label, List<String> command, Peer peer) implements PeerProcess {
    private static final Duration EXIT_REPORT = Duration.ofSeconds(10);

    RemotePeerProcess {
        command = List.copyOf(command);
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
    public boolean isStarted() {
        return peer.hasStarted();
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
        return PeerProcess.reportBlock(label, peer.name(), command, output());
    }
}
