package dev.panamaverbs.examples.cli;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;

/**
 * The C tools' out-of-band TCP connection, each step bounded by a timeout: the client connects
 * to the first of the host's addresses that answers, the server accepts one client.
 */
public final class ToolSockets {
    private ToolSockets() {}

    /**
     * The client: connects to the first of {@code host}'s addresses that answers on {@code port}
     * within {@code timeout}.
     *
     * @param hint what the failure's message ends with ({@code "Couldn't connect to host:port"}), may be empty
     * @return the connected socket
     * @throws IOException when no address answered; the last address's failure is its cause
     */
    public static Socket connect(String host, int port, Duration timeout, String hint) throws IOException {
        IOException last = null;
        for (InetAddress address : InetAddress.getAllByName(host)) {
            Socket socket = new Socket();
            try {
                socket.connect(new InetSocketAddress(address, port), millis(timeout));
                return socket;
            } catch (IOException e) {
                socket.close();
                last = e;
            }
        }
        throw new IOException("Couldn't connect to " + host + ":" + port + hint, last);
    }

    /**
     * The server: listens on {@code port} of every local address and accepts one client within
     * {@code timeout}; the listener is closed again.
     *
     * @return the accepted client's socket
     * @throws IOException when no client connected in time
     */
    public static Socket accept(int port, Duration timeout) throws IOException {
        try (ServerSocket listener = new ServerSocket()) {
            listener.setReuseAddress(true);
            listener.bind(new InetSocketAddress(port), 1);
            listener.setSoTimeout(millis(timeout));
            try {
                return listener.accept();
            } catch (SocketTimeoutException e) {
                throw new IOException("no client connected to port " + port + " within " + timeout.toSeconds() + " s", e);
            }
        }
    }

    /** What a read of an exact number of bytes throws when fewer came. */
    @FunctionalInterface
    public interface ShortRead {
        /**
         * The failure for a read that got only {@code read} bytes.
         *
         * @param read    how many bytes came
         * @param timeout the socket's timeout that passed first, or {@code null} when the stream ended
         * @return the exception to throw
         * @throws IOException when the socket cannot say what the failure needs
         */
        IOException failure(int read, SocketTimeoutException timeout) throws IOException;
    }

    /**
     * Reads exactly {@code size} bytes from {@code in}, each read bounded by the socket's timeout.
     *
     * @param failure what to throw when the stream ends or a read times out first
     * @return the bytes
     * @throws IOException {@code failure}'s exception, or the stream's own
     */
    public static byte[] readFully(InputStream in, int size, ShortRead failure) throws IOException {
        byte[] data = new byte[size];
        int read = 0;
        try {
            while (read < size) {
                int n = in.read(data, read, size - read);
                if (n < 0) {
                    throw failure.failure(read, null);
                }
                read += n;
            }
        } catch (SocketTimeoutException e) {
            throw failure.failure(read, e);
        }
        return data;
    }

    /** Makes every read of {@code socket} wait at most {@code timeout}, and sends without delay. */
    public static void bound(Socket socket, Duration timeout) throws IOException {
        socket.setSoTimeout(millis(timeout));
        socket.setTcpNoDelay(true);
    }

    /** {@code timeout} in whole milliseconds for a socket: at least 1 (0 would mean forever), at most {@code int}'s. */
    public static int millis(Duration timeout) {
        return (int) Math.min(Integer.MAX_VALUE, Math.max(1, timeout.toMillis()));
    }
}
