package dev.panamaverbs.it.fuzz;

import dev.panamaverbs.cm.EndpointExchange;
import dev.panamaverbs.cm.EndpointExchangeException;
import dev.panamaverbs.cm.EndpointInfo;
import dev.panamaverbs.testkit.TestDevice;
import dev.panamaverbs.values.Mtu;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The endpoint exchange against a hostile peer on a local socket: seeded messages (random bytes
 * of random lengths, a valid message cut short, a valid header over a random body, a valid
 * message with one field at an edge of its width, signed and unsigned, a valid message with bytes
 * after it, nothing at all), sent through each way in (a {@code Socket}, a {@code SocketChannel},
 * the streams, {@code connect}), the peer then closing, resetting the connection or staying
 * silent. Every exchange must end within its timeout and a few seconds with the peer's endpoint
 * or a documented exception: {@link EndpointExchangeException}, or an {@link IOException} of the
 * socket. Needs no device.
 */
final class ExchangeFuzz {
    static final List<Class<? extends Throwable>> DOCUMENTED = List.of(EndpointExchangeException.class, IOException.class);
    private static final int CASES = 150;
    private static final Duration TIMEOUT = Duration.ofSeconds(2);
    /** An exchange's timeout plus this is the most a case may take (TCG under load is slow). */
    private static final long SLACK_NANOS = 8_000_000_000L;
    /** Field offsets and widths of a version 1 message (see {@link EndpointExchange}). */
    private static final int[][] FIELDS = {{4, 2}, {6, 2}, {8, 4}, {12, 4}, {16, 2}, {18, 1}, {19, 1}, {20, 4},
            {24, 16}, {40, 8}, {48, 4}, {52, 4}, {56, 8}};
    private static final long[] EDGES = {0, 1, 0x7F, 0x80, 0xFF, 0x7FFF, 0x8000, 0xFFFF, 0xFF_FFFF, 0x100_0000,
            0x7FFF_FFFFL, 0x8000_0000L, 0xFFFF_FFFFL, Long.MAX_VALUE, Long.MIN_VALUE, -1};

    private enum Ending { CLOSE, RESET, SILENT }

    private enum Way { SOCKET, CHANNEL, STREAMS, CONNECT }

    private ExchangeFuzz() {}

    static void run(TestDevice device, FuzzRun run) throws IOException {
        Random random = run.random();
        EndpointInfo local = new EndpointInfo(0x12_3456, 0x65_4321, 0, null, Mtu.MTU_1024, 0, Optional.empty());
        byte[] valid = EndpointExchange.encode(local);
        try (ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            server.setSoTimeout(20_000);
            for (int i = 0; i < CASES; i++) {
                StringBuilder name = new StringBuilder().append(i).append(' ');
                byte[] message = draw(random, valid, name);
                Ending ending = random.nextInt(20) == 0 ? Ending.SILENT
                        : random.nextInt(4) == 0 ? Ending.RESET : Ending.CLOSE;
                Way way = Way.values()[random.nextInt(Way.values().length)];
                name.append(", then ").append(ending).append(", through ").append(way);
                run.run(name.toString(), DOCUMENTED, () -> exchange(server, message, ending, way, local));
            }
        }
    }

    /** One of the messages of the class comment; {@code name} gets what it is. */
    private static byte[] draw(Random random, byte[] valid, StringBuilder name) {
        switch (random.nextInt(6)) {
            case 0 -> {
                byte[] bytes = new byte[random.nextInt(2 * EndpointExchange.MESSAGE_SIZE)];
                random.nextBytes(bytes);
                name.append(bytes.length).append(" random bytes");
                return bytes;
            }
            case 1 -> {
                int length = random.nextInt(EndpointExchange.MESSAGE_SIZE);
                name.append("a valid message cut at ").append(length);
                return Arrays.copyOf(valid, length);
            }
            case 2 -> {
                byte[] bytes = valid.clone();
                byte[] body = new byte[bytes.length - 8];
                random.nextBytes(body);
                System.arraycopy(body, 0, bytes, 8, body.length);
                name.append("a valid header over a random body");
                return bytes;
            }
            case 3 -> {
                int[] field = FIELDS[random.nextInt(FIELDS.length)];
                long value = EDGES[random.nextInt(EDGES.length)];
                byte[] bytes = valid.clone();
                ByteBuffer buffer = ByteBuffer.wrap(bytes); // big-endian, as on the wire
                for (int b = 0; b < field[1]; b++) {
                    // the value's low bytes, right-aligned in the field; wider fields repeat its sign
                    int shift = 8 * (field[1] - 1 - b);
                    buffer.put(field[0] + b, (byte) (shift < 64 ? value >> shift : value >> 63));
                }
                name.append("field at ").append(field[0]).append(" (").append(field[1]).append(" bytes) = 0x")
                        .append(Long.toHexString(value));
                return bytes;
            }
            case 4 -> {
                byte[] extra = new byte[1 + random.nextInt(64)];
                random.nextBytes(extra);
                byte[] bytes = Arrays.copyOf(valid, valid.length + extra.length);
                System.arraycopy(extra, 0, bytes, valid.length, extra.length);
                name.append("a valid message and ").append(extra.length).append(" bytes more");
                return bytes;
            }
            default -> {
                name.append("a valid message");
                return valid;
            }
        }
    }

    private static void exchange(ServerSocket server, byte[] message, Ending ending, Way way, EndpointInfo local)
            throws Throwable {
        AtomicReference<Throwable> peerFailure = new AtomicReference<>();
        Thread peer = Thread.ofPlatform().name("hostile peer").start(() -> {
            try (Socket socket = server.accept()) {
                socket.setSoTimeout(20_000);
                // Ours first (every way in sends before it reads): a close with our bytes unread would reset.
                socket.getInputStream().readNBytes(EndpointExchange.MESSAGE_SIZE);
                socket.getOutputStream().write(message);
                socket.getOutputStream().flush();
                switch (ending) {
                    case CLOSE -> { }
                    case RESET -> socket.setSoLinger(true, 0);
                    case SILENT -> drainUntilClosed(socket.getInputStream());
                }
            } catch (IOException e) {
                // our side may have closed first (a refused message): nothing to check on the peer
            } catch (Throwable e) {
                peerFailure.set(e);
            }
        });
        long start = System.nanoTime();
        try {
            InetSocketAddress address = new InetSocketAddress(server.getInetAddress(), server.getLocalPort());
            switch (way) {
                case SOCKET -> {
                    try (Socket socket = new Socket(address.getAddress(), address.getPort())) {
                        EndpointExchange.exchange(socket, local, TIMEOUT);
                    }
                }
                case CHANNEL -> {
                    try (SocketChannel channel = SocketChannel.open(address)) {
                        EndpointExchange.exchange(channel, local, TIMEOUT);
                    }
                }
                case STREAMS -> {
                    try (Socket socket = new Socket(address.getAddress(), address.getPort())) {
                        socket.setSoTimeout((int) TIMEOUT.toMillis());
                        EndpointExchange.exchange(socket.getInputStream(), socket.getOutputStream(), local);
                    }
                }
                case CONNECT -> EndpointExchange.connect(address, local, TIMEOUT);
            }
        } finally {
            long took = System.nanoTime() - start;
            peer.join(30_000);
            if (peer.isAlive()) {
                throw new AssertionError("the peer thread did not end");
            }
            if (peerFailure.get() != null) {
                throw new AssertionError("the peer failed", peerFailure.get());
            }
            if (took > TIMEOUT.toNanos() + SLACK_NANOS) {
                throw new AssertionError("the exchange took " + took / 1_000_000 + " ms, its timeout is " + TIMEOUT);
            }
        }
    }

    private static void drainUntilClosed(InputStream in) throws IOException {
        byte[] buffer = new byte[256];
        while (in.read(buffer) >= 0) {
            // our message, then EOF once our side gives up
        }
    }
}
