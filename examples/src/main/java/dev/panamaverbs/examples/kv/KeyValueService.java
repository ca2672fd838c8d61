package dev.panamaverbs.examples.kv;

import dev.panamaverbs.examples.kv.KeyValueProtocol.Response;
import dev.panamaverbs.examples.kv.KeyValueProtocol.Status;
import dev.panamaverbs.messaging.ChannelOptions;
import dev.panamaverbs.messaging.MessageChannel;
import dev.panamaverbs.messaging.MessageServer;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * A key-value service over verbs-messaging's request/response: the server keeps a map, the client
 * stores {@code COUNT} keys with values of seeded random sizes (1 B up to a message), reads every
 * one back and checks it byte for byte, deletes every third key and checks that each is then
 * gone. Requests are pipelined ({@link #PIPELINE} in flight); the channel's credits keep the
 * server's receive queue from ever overflowing. The wire format is {@link KeyValueProtocol}.
 *
 * <pre>
 * server ADDRESS PORT [CLIENTS]      listens (rdma_cm) on ADDRESS:PORT, serves CLIENTS clients (default 1), then exits
 * client ADDRESS PORT [COUNT [SEED]] connects to the server there and runs the workload (default 1000 keys, seed 1)
 * </pre>
 *
 * Exit status 0 when everything checked out, 1 on any failure (printed), 2 on a usage error.
 */
public final class KeyValueService {
    static final Duration WAIT = Duration.ofSeconds(60);
    /** Requests in flight at once. */
    static final int PIPELINE = 8;

    private KeyValueService() {}

    /**
     * {@code server ADDRESS PORT [CLIENTS]} or {@code client ADDRESS PORT [COUNT [SEED]]}.
     *
     * @param args the role, the address to listen on or connect to, the port, and the role's count
     */
    public static void main(String[] args) {
        boolean server = args.length >= 1 && args[0].equals("server");
        boolean client = args.length >= 1 && args[0].equals("client");
        if (!(server && (args.length == 3 || args.length == 4)) && !(client && args.length >= 3 && args.length <= 5)) {
            System.err.println("usage: KeyValueService server ADDRESS PORT [CLIENTS] | client ADDRESS PORT [COUNT [SEED]]");
            System.exit(2);
        }
        try {
            InetSocketAddress address = new InetSocketAddress(InetAddress.getByName(args[1]), Integer.parseInt(args[2]));
            boolean ok;
            if (server) {
                ok = serve(address, args.length == 4 ? Integer.parseInt(args[3]) : 1, System.out);
            } else {
                ok = run(address, args.length >= 4 ? Integer.parseInt(args[3]) : 1000, args.length == 5 ? Long.parseLong(args[4]) : 1,
                        System.out);
            }
            System.exit(ok ? 0 : 1);
        } catch (Exception e) {
            System.err.println(args[0] + ": FAILED: " + e);
            System.exit(1);
        }
    }

    static ChannelOptions options() {
        // The peer may be a cold JVM on a slow host: give connecting and each send the same minute as every other wait.
        return ChannelOptions.builder().connectTimeout(WAIT).sendTimeout(WAIT).build();
    }

    /** Listens, serves {@code clients} clients until each left; true when none failed. */
    static boolean serve(InetSocketAddress address, int clients, PrintStream out) throws InterruptedException {
        try (MessageServer server = MessageServer.listen(address, options())) {
            out.println("server: listening on " + server.localAddress());
            return new KeyValueServer(WAIT, out).serve(server, clients);
        }
    }

    /** Connects and runs the workload; true when every response was what the store must answer. */
    static boolean run(InetSocketAddress address, int count, long seed, PrintStream out) {
        long started = System.nanoTime();
        try (MessageChannel channel = MessageChannel.connect(address, options())) {
            out.println("client: connected to " + channel.remoteAddress());
            KeyValueClient client = new KeyValueClient(channel, WAIT);
            Random sizes = new Random(seed);
            int[] valueBytes = new int[count + 1];
            long bytes = 0;
            try (Pipeline puts = new Pipeline()) {
                for (int n = 1; n <= count; n++) {
                    String key = key(n);
                    // Mostly small values, one in 16 up to the largest a message carries.
                    int bound = sizes.nextInt(16) == 0 ? client.maxValueBytes(key) : 4096;
                    valueBytes[n] = 1 + sizes.nextInt(bound);
                    bytes += valueBytes[n];
                    puts.add(client.put(key, value(n, valueBytes[n])), expect(Status.OK, null, "put " + key));
                }
            }
            out.println("client: " + count + " keys put (" + bytes + " value bytes)");
            try (Pipeline gets = new Pipeline()) {
                for (int n = 1; n <= count; n++) {
                    gets.add(client.get(key(n)), expect(Status.OK, value(n, valueBytes[n]), "get " + key(n)));
                }
            }
            out.println("client: " + count + " keys read back, every byte checked");
            int deleted = 0;
            try (Pipeline deletes = new Pipeline()) {
                for (int n = 3; n <= count; n += 3) {
                    deletes.add(client.delete(key(n)), expect(Status.OK, null, "delete " + key(n)));
                    deleted++;
                }
            }
            try (Pipeline gone = new Pipeline()) {
                for (int n = 3; n <= count; n += 3) {
                    gone.add(client.get(key(n)), expect(Status.NOT_FOUND, null, "get of deleted " + key(n)));
                }
            }
            out.println("client: " + deleted + " keys deleted, each then not found");
            out.printf("client: %d requests answered and checked in %d ms%n", 2L * count + 2L * deleted,
                    (System.nanoTime() - started) / 1_000_000);
            return true;
        } catch (IllegalStateException wrong) {
            out.println("client: FAILED: " + wrong.getMessage());
            return false;
        }
    }

    static String key(int n) {
        return "key-" + n;
    }

    /** Key {@code n}'s value: {@code length} bytes that differ from key to key and along the value. */
    static byte[] value(int n, int length) {
        byte[] value = new byte[length];
        for (int i = 0; i < length; i++) {
            value[i] = (byte) (n * 31 + i * 7);
        }
        return value;
    }

    /** Checks a response's status, and its value when {@code value} is not null. */
    private static Consumer<Response> expect(Status status, byte[] value, String what) {
        return response -> {
            if (response.status() != status) {
                throw new IllegalStateException(what + ": status " + response.status() + ", expected " + status);
            }
            if (value != null && !Arrays.equals(response.value(), value)) {
                throw new IllegalStateException(what + ": " + response.value().length + " bytes differ from the "
                        + value.length + " put");
            }
        };
    }

    /** Responses in flight, at most {@link #PIPELINE}: each checked in order, the rest when closed. */
    private static final class Pipeline implements AutoCloseable {
        private final ArrayDeque<CompletableFuture<Response>> inFlight = new ArrayDeque<>();
        private final ArrayDeque<Consumer<Response>> checks = new ArrayDeque<>();

        void add(CompletableFuture<Response> response, Consumer<Response> check) {
            if (inFlight.size() == PIPELINE) {
                checkOldest();
            }
            inFlight.add(response);
            checks.add(check);
        }

        private void checkOldest() {
            checks.remove().accept(inFlight.remove().join());
        }

        @Override
        public void close() {
            while (!inFlight.isEmpty()) {
                checkOldest();
            }
        }
    }
}
