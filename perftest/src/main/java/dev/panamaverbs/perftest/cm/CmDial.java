package dev.panamaverbs.perftest.cm;

import dev.panamaverbs.cm.ConnectionOptions;
import dev.panamaverbs.cm.ConnectionException;
import dev.panamaverbs.cm.ConnectionRejectedException;
import dev.panamaverbs.cm.RdmaConnection;
import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;

/**
 * An rdma_cm client's connect as perftest makes it: to the server's IPv4 address ({@code AF_INET}
 * hints), tried again every 100 ms while the peer rejects it because nothing listens yet
 * ({@code rdma_cm_client_connection} tries 10 times: its server starts listening only after a
 * hand shake, so the client may come first).
 */
final class CmDial {
    private static final long PAUSE_MILLIS = 100;

    private CmDial() {}

    /** 0.0.0.0:{@code port}, where perftest's servers listen ({@code AF_INET}, {@code RAI_PASSIVE}); Java's own wildcard may be IPv6. */
    static InetSocketAddress anyIpv4(int port) throws IOException {
        return new InetSocketAddress(InetAddress.getByAddress(new byte[4]), port);
    }

    /** {@code host}'s first IPv4 address with {@code port}. */
    static InetSocketAddress ipv4(String host, int port) throws IOException {
        for (InetAddress address : InetAddress.getAllByName(host)) {
            if (address instanceof Inet4Address) {
                return new InetSocketAddress(address, port);
            }
        }
        throw new IOException(host + " has no IPv4 address (perftest's rdma_cm connections are AF_INET)");
    }

    /**
     * Connects to {@code server}, trying again for up to {@code retryFor} while it is rejected or refused;
     * the last rejection is thrown after that.
     */
    static RdmaConnection dial(InetSocketAddress server, ConnectionOptions options, Duration retryFor) throws IOException {
        return dial(server, options, retryFor, connection -> { });
    }

    /**
     * As {@link #dial(InetSocketAddress, ConnectionOptions, Duration)}, running {@code beforeConnect} on
     * each attempt's connection before {@code rdma_connect}: where the receives go that the server
     * fills as soon as it is connected (iWARP has no RNR retry: a SEND that finds none breaks the
     * connection).
     */
    static RdmaConnection dial(InetSocketAddress server, ConnectionOptions options, Duration retryFor,
            java.util.function.Consumer<? super RdmaConnection> beforeConnect) throws IOException {
        return retrying(server, retryFor, () -> RdmaConnection.connect(server, options, beforeConnect));
    }

    /**
     * Whether {@code failure} may mean the server does not listen yet: any reject (perftest's
     * client retries whatever ended its connect), or what the library names as nothing listening
     * (iWARP's refused {@code rdma_connect}; in the UDP port space of UD with {@code -R}, a SIDR
     * reply "service ID not supported": perftest's UD server listens there only after its first
     * hand shake over its own link).
     */
    static boolean notListeningYet(ConnectionException failure) {
        return failure instanceof ConnectionRejectedException || failure.nothingListens();
    }

    /** One connect attempt; what it made is its own to undo when it throws. */
    interface Attempt<T> {
        T run() throws IOException;
    }

    /**
     * Runs {@code attempt} again every 100 ms while {@code server} rejects or refuses it, for up to
     * {@code retryFor}; the last rejection is thrown after that.
     */
    static <T> T retrying(InetSocketAddress server, Duration retryFor, Attempt<T> attempt) throws IOException {
        long deadline = System.nanoTime() + retryFor.toNanos();
        while (true) {
            try {
                return attempt.run();
            } catch (ConnectionException rejected) {
                if (!notListeningYet(rejected)) {
                    throw rejected;
                }
                if (System.nanoTime() - deadline > 0) {
                    throw new IOException("rdma_cm connect to " + server + " rejected for " + retryFor.toSeconds()
                            + " s (is the perftest server running, with -R?): " + rejected.getMessage(), rejected);
                }
                try {
                    Thread.sleep(PAUSE_MILLIS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted while connecting to " + server, e);
                }
            }
        }
    }
}
