package dev.panamaverbs.examples.pingpong;

import dev.panamaverbs.examples.cli.ToolSockets;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.function.Consumer;

/**
 * rc_pingpong's TCP exchange of addresses, each step bounded by a timeout.
 * <ul>
 * <li>client: connect, send its {@value PingPongDestination#MESSAGE_SIZE}-byte message, read the
 *     server's, send {@code "done"} with its NUL (5 bytes), close;</li>
 * <li>server: accept one connection, read the client's message, <em>connect its queue pair</em>
 *     (so it is ready to receive before the client can send), send its own message, read the
 *     client's {@code "done"}, close.</li>
 * </ul>
 */
public final class PingPongExchange {
    /** What the client sends last: {@code "done"} and the NUL ({@code sizeof "done"} in C). */
    static final byte[] DONE = "done\0".getBytes(StandardCharsets.US_ASCII);

    private PingPongExchange() {}

    /** The client side: connects to the first of {@code host}'s addresses that answers; returns the server's address. */
    public static PingPongDestination client(String host, int port, PingPongDestination mine, Duration timeout)
            throws IOException {
        try (Socket socket = ToolSockets.connect(host, port, timeout, "")) {
            return clientExchange(socket, mine, timeout);
        }
    }

    private static PingPongDestination clientExchange(Socket socket, PingPongDestination mine, Duration timeout)
            throws IOException {
        ToolSockets.bound(socket, timeout);
        OutputStream out = socket.getOutputStream();
        out.write(mine.toMessage());
        out.flush();
        PingPongDestination remote = PingPongDestination.parse(readFully(socket.getInputStream(),
                PingPongDestination.MESSAGE_SIZE, "the server's address"));
        out.write(DONE);
        out.flush();
        return remote;
    }

    /**
     * The server side, on {@code port} of every local address: waits up to {@code timeout} for
     * one client, hands its address to {@code connect} (which must make the queue pair ready to
     * receive), sends {@code mine}, and waits for {@code "done"}. Returns the client's address.
     */
    public static PingPongDestination server(int port, PingPongDestination mine, Duration timeout,
                                             Consumer<PingPongDestination> connect) throws IOException {
        try (Socket socket = ToolSockets.accept(port, timeout)) {
            ToolSockets.bound(socket, timeout);
            PingPongDestination remote = PingPongDestination.parse(readFully(socket.getInputStream(),
                    PingPongDestination.MESSAGE_SIZE, "the client's address"));
            connect.accept(remote);
            OutputStream out = socket.getOutputStream();
            out.write(mine.toMessage());
            out.flush();
            byte[] done = readFully(socket.getInputStream(), DONE.length, "the client's \"done\"");
            if (!Arrays.equals(done, DONE)) {
                throw new IOException("expected \"done\" from the client, got " + Arrays.toString(done));
            }
            return remote;
        }
    }

    /** Reads exactly {@code size} bytes (or fails naming {@code what}: EOF or timeout). */
    static byte[] readFully(InputStream in, int size, String what) throws IOException {
        return ToolSockets.readFully(in, size, (read, timeout) -> timeout == null
                ? new IOException(read + "/" + size + ": Couldn't read " + what + " (connection closed)")
                : new IOException(read + "/" + size + ": Couldn't read " + what + " in time", timeout));
    }
}
