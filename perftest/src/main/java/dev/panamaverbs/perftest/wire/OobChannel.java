package dev.panamaverbs.perftest.wire;

import dev.panamaverbs.examples.cli.ToolSockets;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.time.Duration;

/**
 * perftest's out-of-band TCP connection (default port {@value #DEFAULT_PORT}): the server accepts
 * one client; then every exchange is the same fixed-size step each way, the client writing first
 * and the server reading first ({@code ctx_xchg_data}, {@code ctx_hand_shake}). Nothing is framed:
 * both sides must agree on every size, which is why perftest's checks come first.
 *
 * <p>Unlike C, every wait is bounded by the timeout, and a peer that closes the connection (as
 * perftest does when it refuses something: it prints why and exits) is reported with the step
 * that was under way.
 */
public final class OobChannel implements OobLink {
    /** {@code DEF_PORT}. */
    public static final int DEFAULT_PORT = 18515;

    private final Socket socket;
    private final boolean client;
    private final InputStream in;
    private final OutputStream out;

    private OobChannel(Socket socket, boolean client, Duration timeout) throws IOException {
        this.socket = socket;
        this.client = client;
        ToolSockets.bound(socket, timeout);
        this.in = socket.getInputStream();
        this.out = socket.getOutputStream();
    }

    /** Over an established socket (tests; {@code client} says which side writes first). */
    public static OobChannel over(Socket socket, boolean client, Duration timeout) throws IOException {
        return new OobChannel(socket, client, timeout);
    }

    /** The client: connects to the first address of {@code host} that answers on {@code port}. */
    public static OobChannel connect(String host, int port, Duration timeout) throws IOException {
        Socket socket = ToolSockets.connect(host, port, timeout, " (is the perftest server running?)");
        try {
            return new OobChannel(socket, true, timeout);
        } catch (IOException e) {
            socket.close();
            throw e;
        }
    }

    /** The server: listens on {@code port} of every local address and accepts one client within {@code timeout}. */
    public static OobChannel accept(int port, Duration timeout) throws IOException {
        return new OobChannel(ToolSockets.accept(port, timeout), false, timeout);
    }

    /** Whether this side connected (and writes first). */
    @Override
    public boolean isClient() {
        return client;
    }

    /** One key message each way ({@code ctx_hand_shake}); the peer's is parsed in the same form as ours. */
    @Override
    public KeyMessage handShake(KeyMessage mine, String step) throws IOException {
        return KeyMessage.decode(exchange(mine.encode(), step));
    }

    @Override
    public void write(byte[] data, String step) throws IOException {
        try {
            out.write(data);
            out.flush();
        } catch (IOException e) {
            throw new PeerGoneException("the perftest peer closed the connection during " + step
                    + " (it refused the test; its own output says why)", e);
        }
    }

    @Override
    public byte[] read(int size, String step) throws IOException {
        return ToolSockets.readFully(in, size, (read, timeout) -> timeout == null
                ? new PeerGoneException("the perftest peer closed the connection during " + step + " after " + read
                        + " of " + size + " bytes (it refused the test or failed; its own output says why)",
                        new EOFException())
                : new PeerGoneException("no answer from the perftest peer during " + step + " within "
                        + socket.getSoTimeout() / 1000 + " s (" + read + " of " + size + " bytes)", timeout));
    }

    /**
     * perftest's {@code ctx_close_connection} after its hand shake: write {@code "done"} and its
     * NUL ({@value #DONE_SIZE} bytes) and close, without reading the peer's (each side writes its
     * own and closes). A peer already gone by then is no error: the test is over.
     */
    @Override
    public void finish() throws IOException {
        try {
            out.write(DONE);
            out.flush();
        } catch (IOException ignored) {
            // the peer wrote its "done" and closed first: nothing left to agree on
        } finally {
            socket.close();
        }
    }

    /** What each side writes last: {@code "done"} and its NUL ({@code sizeof "done"}). */
    static final byte[] DONE = {'d', 'o', 'n', 'e', 0};
    /** The size of {@link #DONE}. */
    public static final int DONE_SIZE = 5;

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
