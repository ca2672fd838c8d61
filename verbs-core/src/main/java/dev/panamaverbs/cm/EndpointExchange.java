package dev.panamaverbs.cm;

import dev.panamaverbs.cm.EndpointExchangeException.Reason;
import dev.panamaverbs.internal.Deadline;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;

/**
 * The out-of-band endpoint exchange, for connecting queue pairs without rdma_cm (InfiniBand
 * without IPoIB, or an application that already has a control channel): each side sends its
 * {@link EndpointInfo} and receives the peer's, over a socket the caller supplies or one this
 * class opens. Both sides send first and then read, so neither has to go first.
 *
 * <h2>Wire format, version 1</h2>
 * One message of {@value #MESSAGE_SIZE} bytes each way, big-endian (network order):
 * <table>
 *   <caption>Endpoint message, version 1</caption>
 *   <tr><th>offset</th><th>size</th><th>field</th></tr>
 *   <tr><td>0</td><td>4</td><td>magic {@code 0x50564550} (ASCII "PVEP")</td></tr>
 *   <tr><td>4</td><td>2</td><td>version, 1</td></tr>
 *   <tr><td>6</td><td>2</td><td>flags: bit 0 a GID follows, bit 1 a memory region follows; other bits 0</td></tr>
 *   <tr><td>8</td><td>4</td><td>queue pair number (24 bits used)</td></tr>
 *   <tr><td>12</td><td>4</td><td>first packet sequence number the sender sends (24 bits used)</td></tr>
 *   <tr><td>16</td><td>2</td><td>LID (0 on RoCE)</td></tr>
 *   <tr><td>18</td><td>1</td><td>path MTU as C {@code enum ibv_mtu} (1 = 256 ... 5 = 4096)</td></tr>
 *   <tr><td>19</td><td>1</td><td>reserved, 0</td></tr>
 *   <tr><td>20</td><td>4</td><td>Q_Key (UD; 0 when unused)</td></tr>
 *   <tr><td>24</td><td>16</td><td>GID, network order (zero without flag bit 0)</td></tr>
 *   <tr><td>40</td><td>8</td><td>memory region: device address (zero without flag bit 1)</td></tr>
 *   <tr><td>48</td><td>4</td><td>memory region: rkey</td></tr>
 *   <tr><td>52</td><td>4</td><td>reserved, 0</td></tr>
 *   <tr><td>56</td><td>8</td><td>memory region: length in bytes</td></tr>
 * </table>
 * A receiver reads the first 8 bytes, checks the magic and the version, then reads the rest.
 * Another version is a {@link Reason#VERSION_MISMATCH}; a wrong magic, unknown flags, non-zero
 * reserved or absent fields, or out-of-range values are {@link Reason#GARBAGE}; a connection that
 * ends early or is reset is {@link Reason#PEER_CLOSED}; a call longer than its timeout is
 * {@link Reason#TIMEOUT}. Each timeout bounds its whole call (one deadline for connecting or
 * accepting and exchanging; the rule for zero, negative and huge ones is in
 * {@code docs/safety.md}, "Deadlines"). A later version may grow the message; it keeps the first 8 bytes.
 *
 * <pre>{@code
 * // server                                         // client
 * try (var listener = EndpointExchange.listen(       EndpointInfo server = EndpointExchange.connect(
 *         new InetSocketAddress(port))) {                    serverAddress, mine, Duration.ofSeconds(10));
 *     EndpointInfo client = listener.accept(mine, Duration.ofSeconds(30));
 * }
 * }</pre>
 */
public final class EndpointExchange {
    /** The first four bytes of every message: ASCII "PVEP". */
    public static final int MAGIC = EndpointMessage.MAGIC;
    /** The wire format version this class writes and reads. */
    public static final int VERSION = EndpointMessage.VERSION;
    /** Bytes in a version 1 message. */
    public static final int MESSAGE_SIZE = EndpointMessage.MESSAGE_SIZE;

    /** How long a refused connect waits before it tries again (the peer may not listen yet). */
    private static final long CONNECT_RETRY_MILLIS = 100;

    private EndpointExchange() {}

    // ---- the wire format ----

    /**
     * {@code info} as a version 1 message.
     *
     * @param info the endpoint to encode
     * @return {@code info} as a version 1 message.
     */
    public static byte[] encode(EndpointInfo info) {
        return EndpointMessage.encode(info);
    }

    /**
     * The endpoint in a version 1 message.
     *
     * @throws EndpointExchangeException {@link Reason#VERSION_MISMATCH} or {@link Reason#GARBAGE}
     * @param message the bytes received, {@link #MESSAGE_SIZE} of them
     * @return the endpoint in a version 1 message.
     */
    public static EndpointInfo decode(byte[] message) throws EndpointExchangeException {
        return EndpointMessage.decode(message);
    }

    // ---- exchanges over a connection the caller supplies ----

    /**
     * Sends {@code local} on {@code out}, then reads the peer's message from {@code in}. Reads
     * block as long as {@code in} does: give it a timeout (a socket's {@code SO_TIMEOUT}; then a
     * {@link SocketTimeoutException} becomes {@link Reason#TIMEOUT}), or use an overload with one.
     * The streams stay open.
     *
     * @return the peer's endpoint
     * @throws EndpointExchangeException when the peer closes early, speaks another version, sends
     *                                   garbage, or the read times out
     * @throws IOException               when writing or reading fails otherwise
     * @param in the stream the peer's message is read from
     * @param out the stream this side's message is written to
     * @param local this side's endpoint, sent to the peer
     */
    public static EndpointInfo exchange(InputStream in, OutputStream out, EndpointInfo local) throws IOException {
        Objects.requireNonNull(in, "in");
        Objects.requireNonNull(out, "out");
        out.write(encode(local));
        out.flush();
        try {
            byte[] header = readFully(in, EndpointMessage.HEADER_SIZE, 0);
            EndpointMessage.checkHeader(header);
            byte[] message = Arrays.copyOf(header, MESSAGE_SIZE);
            System.arraycopy(readFully(in, MESSAGE_SIZE - EndpointMessage.HEADER_SIZE, EndpointMessage.HEADER_SIZE), 0, message, EndpointMessage.HEADER_SIZE,
                    MESSAGE_SIZE - EndpointMessage.HEADER_SIZE);
            return decode(message);
        } catch (SocketTimeoutException e) {
            throw new EndpointExchangeException(Reason.TIMEOUT, "no endpoint message from the peer within the read timeout", e);
        }
    }

    private static byte[] readFully(InputStream in, int count, int before) throws IOException {
        byte[] bytes = in.readNBytes(count);
        if (bytes.length < count) {
            throw peerClosed(before + bytes.length);
        }
        return bytes;
    }

    /**
     * As {@link #exchange(InputStream, OutputStream, EndpointInfo)} over a connected socket,
     * failing with {@link Reason#TIMEOUT} when the whole exchange takes longer than
     * {@code timeout}: every read gets only the time left, so a peer that trickles its message a
     * byte at a time cannot stretch it. A connection the peer resets is {@link Reason#PEER_CLOSED}.
     * The socket stays open (its read timeout is restored). The timeout follows the library's
     * deadline rule ({@code docs/safety.md}, "Deadlines"): zero reads only what has arrived
     * (within 1 ms), a huge one waits for ever.
     * @param socket a connected socket to the peer
     * @param local this side's endpoint, sent to the peer
     * @param timeout how long the whole call may take at most (not negative)
     * @return the peer's endpoint
     * @throws NullPointerException if {@code timeout} is null
     * @throws IllegalArgumentException if {@code timeout} is negative
     * @throws IOException if the socket fails
     */
    public static EndpointInfo exchange(Socket socket, EndpointInfo local, Duration timeout) throws IOException {
        return exchangeUntil(socket, local, Deadline.start("EndpointExchange.exchange", timeout), timeout);
    }

    private static EndpointInfo exchangeUntil(Socket socket, EndpointInfo local, long deadline, Duration timeout)
            throws IOException {
        Objects.requireNonNull(socket, "socket");
        int previous = socket.getSoTimeout();
        try {
            byte[] message = new byte[MESSAGE_SIZE];
            try {
                OutputStream out = socket.getOutputStream();
                out.write(encode(local));
                out.flush();
                InputStream in = socket.getInputStream();
                readUntil(socket, in, message, 0, EndpointMessage.HEADER_SIZE, deadline, timeout);
                EndpointMessage.checkHeader(Arrays.copyOf(message, EndpointMessage.HEADER_SIZE));
                readUntil(socket, in, message, EndpointMessage.HEADER_SIZE, MESSAGE_SIZE, deadline, timeout);
            } catch (EndpointExchangeException | InterruptedIOException e) {
                throw e;
            } catch (IOException e) {
                throw closedHereOrPeerBroke(e, socket.isClosed());
            }
            return decode(message);
        } finally {
            if (!socket.isClosed()) {
                socket.setSoTimeout(previous);
            }
        }
    }

    /** Reads {@code message[from, to)}, each read given only the time left until {@code deadline}. */
    private static void readUntil(Socket socket, InputStream in, byte[] message, int from, int to, long deadline,
                                  Duration timeout) throws IOException {
        for (int at = from; at < to; ) {
            // Past the deadline, only bytes already here are read (a zero timeout still reads once).
            if (at > 0 && Deadline.expired(deadline) && in.available() == 0) {
                throw timedOut(at, timeout, null);
            }
            socket.setSoTimeout(Deadline.blockingMillis(deadline));
            int read;
            try {
                read = in.read(message, at, to - at);
            } catch (SocketTimeoutException e) {
                throw timedOut(at, timeout, e);
            }
            if (read < 0) {
                throw peerClosed(at);
            }
            at += read;
        }
    }

    private static EndpointExchangeException timedOut(int received, Duration timeout, Throwable cause) {
        return new EndpointExchangeException(Reason.TIMEOUT, "no whole endpoint message from the peer within " + timeout
                + " (got " + received + " of its " + MESSAGE_SIZE + " bytes)", cause);
    }

    private static EndpointExchangeException peerClosed(int received) {
        return new EndpointExchangeException(Reason.PEER_CLOSED, "the peer closed the connection after "
                + received + " of the " + MESSAGE_SIZE + " bytes of its endpoint message");
    }

    /**
     * An I/O failure of an exchange: on a connection this side did not close, the peer reset it
     * (or it broke), thrown as {@link Reason#PEER_CLOSED}; on one closed here, {@code e} is
     * returned for the caller to throw as it is.
     */
    private static IOException closedHereOrPeerBroke(IOException e, boolean closedHere) {
        if (closedHere || e instanceof ClosedChannelException) {
            return e;
        }
        throw new EndpointExchangeException(Reason.PEER_CLOSED, "the connection to the peer broke during the"
                + " endpoint exchange (" + e.getMessage() + "): the peer reset or closed it", e);
    }

    /**
     * As {@link #exchange(Socket, EndpointInfo, Duration)} over a connected channel. The channel
     * must not be registered with a selector; it is left in the blocking mode it had, and open.
     * @param channel a connected socket channel to the peer
     * @param local this side's endpoint, sent to the peer
     * @param timeout how long the whole call may take at most (not negative)
     * @return the peer's endpoint
     * @throws NullPointerException if {@code timeout} is null
     * @throws IllegalArgumentException if {@code timeout} is negative
     * @throws IOException if the socket fails
     */
    public static EndpointInfo exchange(SocketChannel channel, EndpointInfo local, Duration timeout) throws IOException {
        long deadline = Deadline.start("EndpointExchange.exchange", timeout);
        boolean blocking = channel.isBlocking();
        channel.configureBlocking(false);
        try (Selector selector = Selector.open()) {
            ByteBuffer out = ByteBuffer.wrap(encode(local));
            SelectionKey key = channel.register(selector, SelectionKey.OP_WRITE);
            try {
                while (out.hasRemaining()) {
                    if (channel.write(out) == 0) {
                        if (Deadline.expired(deadline)) {
                            throw new EndpointExchangeException(Reason.TIMEOUT, "timed out sending our endpoint message"
                                    + " within " + timeout);
                        }
                        await(selector, deadline);
                    }
                }
                key.interestOps(SelectionKey.OP_READ);
                ByteBuffer header = ByteBuffer.allocate(EndpointMessage.HEADER_SIZE);
                fill(channel, selector, header, deadline, timeout);
                EndpointMessage.checkHeader(header.array());
                ByteBuffer message = ByteBuffer.allocate(MESSAGE_SIZE).put(header.array());
                fill(channel, selector, message, deadline, timeout);
                key.cancel();
                selector.selectNow(); // deregisters, so blocking mode can be restored
                return decode(message.array());
            } catch (EndpointExchangeException | InterruptedIOException e) {
                throw e;
            } catch (IOException e) {
                throw closedHereOrPeerBroke(e, !channel.isOpen());
            }
        } finally {
            if (channel.isOpen()) {
                channel.configureBlocking(blocking);
            }
        }
    }

    private static void fill(SocketChannel channel, Selector selector, ByteBuffer buffer, long deadline,
                             Duration timeout) throws IOException {
        while (buffer.hasRemaining()) {
            int read = channel.read(buffer);
            if (read < 0) {
                throw peerClosed(buffer.position());
            }
            if (read == 0) {
                if (Deadline.expired(deadline)) {
                    throw timedOut(buffer.position(), timeout, null);
                }
                await(selector, deadline);
            }
        }
    }

    /** Waits for the selector's channel until {@code deadline} at most. */
    private static void await(Selector selector, long deadline) throws IOException {
        selector.select(Deadline.blockingMillis(deadline)); // select(0) would wait for ever
        selector.selectedKeys().clear();
    }

    // ---- exchanges over a connection this class opens ----

    /**
     * Connects to {@code peer}, exchanges endpoints, and closes the connection. A refused
     * connection is retried (every 100 ms) until {@code timeout}, since the peer may not listen
     * yet; the whole call, connect and exchange, ends within {@code timeout} (one deadline; see
     * the library's deadline rule in {@code docs/safety.md}, "Deadlines").
     *
     * @throws EndpointExchangeException {@link Reason#TIMEOUT} when nothing accepted within the
     *                                   timeout, or any failure of the exchange itself
     * @throws NullPointerException      if {@code timeout} is null
     * @throws IllegalArgumentException  if {@code timeout} is negative
     * @throws IOException               when the socket fails otherwise
     * @param peer the peer's address and port (TCP)
     * @param local this side's endpoint, sent to the peer
     * @param timeout how long the whole call may take at most (not negative)
     * @return the peer's endpoint
     */
    public static EndpointInfo connect(InetSocketAddress peer, EndpointInfo local, Duration timeout) throws IOException {
        long deadline = Deadline.start("EndpointExchange.connect", timeout);
        try (Socket socket = connectSocketUntil(peer, deadline, timeout)) {
            return exchangeUntil(socket, local, deadline, timeout);
        }
    }

    /**
     * A socket connected to {@code peer}, retrying refused connections until {@code timeout}: the
     * connection {@link #connect} uses, for callers who keep it open afterwards (as a control
     * channel, say) and run {@link #exchange(Socket, EndpointInfo, Duration)} over it.
     * @param peer the peer's address and port (TCP)
     * @param timeout how long the whole call may take at most (not negative)
     * @return a socket connected to {@code peer}
     * @throws NullPointerException if {@code timeout} is null
     * @throws IllegalArgumentException if {@code timeout} is negative
     * @throws IOException if the socket fails
     */
    public static Socket connectSocket(InetSocketAddress peer, Duration timeout) throws IOException {
        return connectSocketUntil(peer, Deadline.start("EndpointExchange.connectSocket", timeout), timeout);
    }

    private static Socket connectSocketUntil(InetSocketAddress peer, long deadline, Duration timeout) throws IOException {
        Objects.requireNonNull(peer, "peer");
        IOException last = null;
        for (boolean first = true; ; first = false) {
            if (!first && Deadline.expired(deadline)) {
                throw new EndpointExchangeException(Reason.TIMEOUT, "could not connect to " + peer + " within " + timeout
                        + (last != null ? " (last attempt: " + last.getMessage() + ")" : ""), last);
            }
            Socket socket = new Socket();
            try {
                socket.connect(peer, Deadline.blockingMillis(deadline)); // connect(peer, 0) would wait for ever
                socket.setTcpNoDelay(true);
                return socket;
            } catch (ConnectException e) { // refused: nobody listens yet
                socket.close();
                last = e;
                sleep(Math.min(CONNECT_RETRY_MILLIS, Deadline.remainingNanos(deadline) / 1_000_000));
            } catch (SocketTimeoutException e) {
                socket.close();
                last = e;
            } catch (IOException | RuntimeException e) {
                socket.close();
                throw e;
            }
        }
    }

    /**
     * Listens on {@code address} (port 0: any free port, see {@link Listener#localAddress()}) for
     * peers to exchange endpoints with.
     * @param address the address and port to listen on (port 0: any free port)
     * @return the listener
     * @throws IOException if the socket fails
     */
    public static Listener listen(InetSocketAddress address) throws IOException {
        ServerSocket server = new ServerSocket();
        try {
            server.setReuseAddress(true);
            server.bind(address);
            return new Listener(server);
        } catch (IOException | RuntimeException e) {
            server.close();
            throw e;
        }
    }

    /** A listening socket that exchanges endpoints with each peer that connects. */
    public static final class Listener implements AutoCloseable {
        private final ServerSocket server;

        private Listener(ServerSocket server) {
            this.server = server;
        }

        /**
         * The address and port it listens on.
         *
         * @return the address and port it listens on.
         */
        public InetSocketAddress localAddress() {
            return (InetSocketAddress) server.getLocalSocketAddress();
        }

        /**
         * Waits for a peer, exchanges endpoints with it, and closes that connection: the whole
         * call, accept and exchange, ends within {@code timeout} (one deadline; see the
         * library's deadline rule in {@code docs/safety.md}, "Deadlines").
         * @param local this side's endpoint, sent to the peer
         * @param timeout how long the whole call may take at most (not negative)
         * @return the peer's endpoint
         * @throws NullPointerException if {@code timeout} is null
         * @throws IllegalArgumentException if {@code timeout} is negative
         * @throws IOException if the socket fails
         */
        public EndpointInfo accept(EndpointInfo local, Duration timeout) throws IOException {
            long deadline = Deadline.start("EndpointExchange.Listener.accept", timeout);
            try (Socket socket = acceptSocketUntil(deadline, timeout)) {
                return exchangeUntil(socket, local, deadline, timeout);
            }
        }

        /**
         * Waits up to {@code timeout} for a peer and returns its connection, for callers who keep it open.
         *
         * @param timeout how long the whole call may take at most (not negative)
         * @return waits up to {@code timeout} for a peer and returns its connection, for callers who keep it open.
         * @throws NullPointerException if {@code timeout} is null
         * @throws IllegalArgumentException if {@code timeout} is negative
         * @throws IOException if the socket fails
         */
        public Socket acceptSocket(Duration timeout) throws IOException {
            return acceptSocketUntil(Deadline.start("EndpointExchange.Listener.acceptSocket", timeout), timeout);
        }

        private Socket acceptSocketUntil(long deadline, Duration timeout) throws IOException {
            server.setSoTimeout(Deadline.blockingMillis(deadline)); // 0 would wait for ever
            try {
                Socket socket = server.accept();
                socket.setTcpNoDelay(true);
                return socket;
            } catch (SocketTimeoutException e) {
                throw new EndpointExchangeException(Reason.TIMEOUT, "no peer connected to " + localAddress() + " within "
                        + timeout, e);
            }
        }

        /** Stops listening. */
        @Override
        public void close() throws IOException {
            server.close();
        }
    }

    private static void sleep(long millis) throws IOException {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while connecting");
        }
    }
}
