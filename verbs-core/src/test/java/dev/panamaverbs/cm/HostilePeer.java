package dev.panamaverbs.cm;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A local TCP peer (127.0.0.1) that misbehaves in one way, for the exchange's deadline and error
 * tests: it listens ({@link #listening}) or dials a listener ({@link #dialing}), and on each
 * connection it does what its {@link Behaviour} says on a thread of its own. Closing it closes its
 * sockets and stops its threads.
 */
final class HostilePeer implements AutoCloseable {
    /** What the peer does with a connection. */
    enum Behaviour {
        /** Accepts and says nothing, keeping the connection open. */
        SILENT,
        /** Sends the endpoint message one byte every 100 ms (6.4 s for all 64). */
        TRICKLE,
        /** Sends 10 bytes of the message, then resets the connection (SO_LINGER 0: RST, not FIN). */
        RESET,
        /** Sends the whole message at once, after {@link #ANSWER_DELAY_MILLIS}. */
        ANSWER
    }

    static final long TRICKLE_MILLIS = 100;
    static final long ANSWER_DELAY_MILLIS = 200;

    private final Behaviour behaviour;
    private final byte[] message;
    private final ServerSocket server;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final List<Thread> threads = new CopyOnWriteArrayList<>();
    private volatile boolean closed;

    private HostilePeer(Behaviour behaviour, EndpointInfo info, ServerSocket server) {
        this.behaviour = behaviour;
        this.message = EndpointExchange.encode(info);
        this.server = server;
    }

    /** A peer listening on a free loopback port, behaving so with every connection. */
    static HostilePeer listening(Behaviour behaviour, EndpointInfo info) throws IOException {
        HostilePeer peer = new HostilePeer(behaviour, info, new ServerSocket(0, 8, InetAddress.getLoopbackAddress()));
        peer.start("accept", () -> {
            while (!peer.closed) {
                Socket socket = peer.server.accept();
                peer.sockets.add(socket);
                peer.start("serve", () -> peer.behave(socket));
            }
        });
        return peer;
    }

    /** A peer that connects to {@code listener} after {@code delayMillis} and behaves so. */
    static HostilePeer dialing(Behaviour behaviour, EndpointInfo info, InetSocketAddress listener, long delayMillis) {
        HostilePeer peer = new HostilePeer(behaviour, info, null);
        peer.start("dial", () -> {
            Thread.sleep(delayMillis);
            Socket socket = new Socket();
            peer.sockets.add(socket);
            socket.connect(listener, 5_000);
            peer.behave(socket);
        });
        return peer;
    }

    InetSocketAddress address() {
        return (InetSocketAddress) server.getLocalSocketAddress();
    }

    private void behave(Socket socket) throws IOException, InterruptedException {
        OutputStream out = socket.getOutputStream();
        switch (behaviour) {
            case SILENT -> {
                while (!closed) {
                    Thread.sleep(50);
                }
            }
            case TRICKLE -> {
                for (byte b : message) {
                    out.write(b);
                    out.flush();
                    Thread.sleep(TRICKLE_MILLIS);
                }
            }
            case RESET -> {
                out.write(message, 0, 10);
                out.flush();
                Thread.sleep(150);
                socket.setSoLinger(true, 0);
                socket.close();
            }
            case ANSWER -> {
                Thread.sleep(ANSWER_DELAY_MILLIS);
                out.write(message);
                out.flush();
            }
        }
    }

    private interface Body {
        void run() throws Exception;
    }

    private void start(String name, Body body) {
        threads.add(Thread.ofPlatform().daemon().name("hostile-peer-" + behaviour + "-" + name).start(() -> {
            try {
                body.run();
            } catch (Exception e) {
                // the peer's own sockets closing under it at the end of a test
            }
        }));
    }

    @Override
    public void close() throws IOException {
        closed = true;
        if (server != null) {
            server.close();
        }
        for (Socket socket : sockets) {
            socket.close();
        }
        try {
            for (Thread thread : threads) {
                thread.interrupt();
                thread.join(2_000);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
