package dev.panamaverbs.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * Where a peer runs, and what can be asked there: start a program, and whether a server listens
 * yet on a TCP port or an rdma_cm port. {@link #LOCAL} is this host (inside the project's VM:
 * rxe0 at 10.0.2.15). A second host (the two-VM harness, 198.18.0.2) is another implementation
 * of this interface: {@link PeerPairing} does not change.
 */
interface PeerHost {
    /** This host. */
    PeerHost LOCAL = new Local();

    /** Starts {@code command} on this host as peer {@code label}. */
    PeerProcess start(String label, List<String> command);

    /** Whether a TCP socket listens on {@code port} here ({@code /proc/net/tcp} and {@code tcp6}, state LISTEN). */
    boolean tcpListening(int port);

    /** Whether an rdma_cm identifier listens on {@code port} here ({@code rdma resource show cm_id src-port PORT}: state LISTEN). */
    boolean rdmaCmListening(int port);

    /** This host's processes and files. */
    final class Local implements PeerHost {
        private static final String LISTEN = "0A";

        @Override
        public PeerProcess start(String label, List<String> command) {
            return PeerProcess.start(label, command);
        }

        @Override
        public boolean tcpListening(int port) {
            String local = String.format(Locale.ROOT, ":%04X", port);
            for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
                try {
                    for (String line : Files.readAllLines(Path.of(table))) {
                        String[] fields = line.strip().split("\\s+");
                        if (fields.length > 3 && fields[1].endsWith(local) && fields[3].equals(LISTEN)) {
                            return true;
                        }
                    }
                } catch (IOException e) {
                    // no IPv6 table on this kernel: the other one decides
                }
            }
            return false;
        }

        @Override
        public boolean rdmaCmListening(int port) {
            try {
                return Commands.output(10, "rdma", "resource", "show", "cm_id", "src-port", Integer.toString(port))
                        .contains("state LISTEN");
            } catch (IllegalStateException notYet) {
                return false; // asked again until the caller's deadline: not listening (yet)
            }
        }

    }
}
