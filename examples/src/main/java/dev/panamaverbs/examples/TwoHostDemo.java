package dev.panamaverbs.examples;

import dev.panamaverbs.values.AccessFlag;
import dev.panamaverbs.Completions;
import dev.panamaverbs.cm.ConnectionOptions;
import dev.panamaverbs.cm.ConnectionException;
import dev.panamaverbs.MemoryRegion;
import dev.panamaverbs.cm.RdmaConnection;
import dev.panamaverbs.cm.RdmaListener;
import dev.panamaverbs.ReceiveWorkRequest;
import dev.panamaverbs.SendWorkRequest;
import dev.panamaverbs.values.WorkRequestOpcode;

import java.io.PrintStream;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Set;

/**
 * Two processes, usually on two hosts, connected by rdma_cm: {@code server ADDRESS PORT} listens,
 * {@code client ADDRESS PORT} connects. They exchange a SEND each way, then the client RDMA-WRITEs
 * into the server's region, READs it back, runs both atomics on it, and measures a short
 * latency and throughput run; the server checks what landed. Each side prints what it did and
 * exits 0 only when every check held. Every wait is bounded.
 */
public final class TwoHostDemo {
    static final Duration WAIT = Duration.ofSeconds(60);
    static final Set<AccessFlag> ACCESS = EnumSet.of(AccessFlag.LOCAL_WRITE, AccessFlag.REMOTE_WRITE,
            AccessFlag.REMOTE_READ, AccessFlag.REMOTE_ATOMIC);
    /** The region: 0..4095 for the exchange's fields, 4096..8191 the throughput run's target. */
    static final int SIZE = 8192;
    static final int BULK = SIZE / 2;
    /** Where the client writes (and reads back) its pattern, and how much. */
    static final int WRITE_OFFSET = 0;
    static final int WRITE_LENGTH = 64;
    /** The 8-byte slot both atomics work on. */
    static final int ATOMIC_OFFSET = 512;

    private TwoHostDemo() {}

    /**
     * {@code server ADDRESS PORT} or {@code client ADDRESS PORT}.
     *
     * @param args the role, the address to listen on or connect to, the port
     * @throws Exception when the exchange fails (the process exits non-zero)
     */
    public static void main(String[] args) throws Exception {
        if (args.length != 3 || !(args[0].equals("server") || args[0].equals("client"))) {
            System.err.println("usage: TwoHostDemo server|client ADDRESS PORT");
            System.exit(2);
        }
        InetSocketAddress address = new InetSocketAddress(InetAddress.getByName(args[1]), Integer.parseInt(args[2]));
        if (args[0].equals("server")) {
            serve(address, System.out);
        } else {
            connectAndRun(address, System.out);
        }
    }

    /** The fixed pattern the client writes and the server checks. */
    static byte pattern(int i) {
        return (byte) (i * 13 + 7);
    }

    static void serve(InetSocketAddress address, PrintStream out) {
        try (RdmaListener listener = RdmaListener.listen(address, ConnectionOptions.defaults())) {
            out.println("server: listening on " + listener.localAddress());
            try (RdmaConnection connection = listener.accept(Duration.ofSeconds(180))) {
                out.println("server: connected to " + connection.remoteAddress());
                Side side = new Side(connection);
                side.postReceive(1);
                side.sendText("region " + side.region.iova() + " " + side.region.rkey());
                out.println("SEND: advertised a " + SIZE + "-byte region (rkey 0x"
                        + Integer.toHexString(side.region.rkey()) + ")");
                out.println("RECV: \"" + side.awaitText(1) + "\"");
                side.postReceive(3);
                side.sendText("hello from the server");
                String done = side.awaitText(3);
                check(done.equals("done"), "expected the client's \"done\", got \"" + done + "\"");
                for (int i = 0; i < WRITE_LENGTH; i++) {
                    check(side.region.memory().get(ValueLayout.JAVA_BYTE, WRITE_OFFSET + i) == pattern(i),
                            "byte " + i + " of the client's RDMA WRITE differs");
                }
                long atomic = side.region.memory().get(ValueLayout.JAVA_LONG, ATOMIC_OFFSET);
                check(atomic == 42, "the atomic slot holds " + atomic + ", 42 expected");
                out.println("server: the client's " + WRITE_LENGTH + "-byte WRITE and its atomics (slot = 42) verified");
                check(connection.awaitDisconnect(WAIT), "the client did not disconnect");
                out.println("server: disconnected");
            }
        }
    }

    static void connectAndRun(InetSocketAddress server, PrintStream out) throws InterruptedException {
        try (RdmaConnection connection = connectWhenListening(server)) {
            out.println("client: connected to " + connection.remoteAddress() + " from " + connection.localAddress());
            Side side = new Side(connection);
            side.postReceive(1);
            String[] advert = side.awaitText(1).split(" ");
            long remote = Long.parseLong(advert[1]);
            int rkey = Integer.parseInt(advert[2]);
            out.println("RECV: the server's region (rkey 0x" + Integer.toHexString(rkey) + ")");
            side.postReceive(3);
            side.sendText("hello from the client");
            out.println("SEND/RECV: \"" + side.awaitText(3) + "\"");

            for (int i = 0; i < WRITE_LENGTH; i++) {
                side.region.memory().set(ValueLayout.JAVA_BYTE, i, pattern(i));
            }
            side.post(side.send.opcode(WorkRequestOpcode.RDMA_WRITE).sge(0, side.region, 0, WRITE_LENGTH)
                    .rdma(remote + WRITE_OFFSET, rkey));
            out.println("WRITE: " + WRITE_LENGTH + " bytes into the server's region");
            side.post(side.send.opcode(WorkRequestOpcode.RDMA_READ).sge(0, side.region, 2048, WRITE_LENGTH)
                    .rdma(remote + WRITE_OFFSET, rkey));
            check(side.region.memory().asSlice(0, WRITE_LENGTH).mismatch(side.region.memory().asSlice(2048, WRITE_LENGTH)) == -1,
                    "the READ brought back other bytes than were written");
            out.println("READ: " + WRITE_LENGTH + " bytes read back, identical to what was written");

            side.post(side.send.opcode(WorkRequestOpcode.ATOMIC_FETCH_AND_ADD).sge(0, side.region, 3072, 8)
                    .atomicFetchAndAdd(remote + ATOMIC_OFFSET, rkey, 10));
            long before = side.region.memory().get(ValueLayout.JAVA_LONG, 3072);
            side.post(side.send.opcode(WorkRequestOpcode.ATOMIC_CMP_AND_SWP).sge(0, side.region, 3072, 8)
                    .atomicCompareAndSwap(remote + ATOMIC_OFFSET, rkey, before + 10, 42));
            long swapped = side.region.memory().get(ValueLayout.JAVA_LONG, 3072);
            check(swapped == before + 10, "compare-and-swap saw " + swapped + ", " + (before + 10) + " expected");
            out.println("ATOMIC: fetch-and-add " + before + " -> " + (before + 10) + ", compare-and-swap -> 42");

            measure(side, remote, rkey, out);
            side.sendText("done");
            check(connection.disconnect(WAIT), "the server did not answer the disconnect");
            out.println("client: disconnected");
        }
    }

    /**
     * Connects, retrying while nothing listens yet or the address does not resolve yet: the
     * server's host may still be booting.
     */
    private static RdmaConnection connectWhenListening(InetSocketAddress server) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(180).toNanos();
        while (true) {
            try {
                return RdmaConnection.connect(server, ConnectionOptions.defaults());
            } catch (ConnectionException notYet) {
                if (System.nanoTime() > deadline) {
                    throw notYet;
                }
                Thread.sleep(500);
            }
        }
    }

    /** A latency line (signaled 64-byte WRITEs one at a time) and a throughput line (4 KiB WRITEs). */
    private static void measure(Side side, long remote, int rkey, PrintStream out) {
        int rounds = 200;
        long[] nanos = new long[rounds];
        for (int i = 0; i < rounds; i++) {
            long start = System.nanoTime();
            side.post(side.send.opcode(WorkRequestOpcode.RDMA_WRITE).sge(0, side.region, 0, WRITE_LENGTH)
                    .rdma(remote + WRITE_OFFSET, rkey));
            nanos[i] = System.nanoTime() - start;
        }
        Arrays.sort(nanos);
        int writes = 200;
        long start = System.nanoTime();
        for (int i = 0; i < writes; i++) {
            side.post(side.send.opcode(WorkRequestOpcode.RDMA_WRITE).sge(0, side.region, BULK, BULK)
                    .rdma(remote + BULK, rkey));
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        out.printf("latency: 64-byte RDMA WRITE to completion, median %.1f us, p99 %.1f us (%d rounds)%n",
                nanos[rounds / 2] / 1e3, nanos[rounds * 99 / 100] / 1e3, rounds);
        out.printf("throughput: %d x %d-byte RDMA WRITEs, %.1f MB/s (one outstanding)%n",
                writes, BULK, writes * (double) BULK / seconds / 1e6);
    }

    static void check(boolean condition, String failure) {
        if (!condition) {
            throw new IllegalStateException(failure);
        }
    }

    /** One side's region, requests and completions on its connection; every wait bounded. */
    private static final class Side {
        final RdmaConnection connection;
        final MemoryRegion region;
        final SendWorkRequest send = SendWorkRequest.allocate(1);
        final ReceiveWorkRequest receive = ReceiveWorkRequest.allocate(1);
        final Completions completions = Completions.allocate(4);
        /** Completions polled while waiting for another one: wr_id to byte length. */
        final java.util.Map<Long, Integer> arrived = new java.util.HashMap<>();
        /** Send requests get their own ids, above every receive's. */
        long nextWrId = 1000;

        Side(RdmaConnection connection) {
            this.connection = connection;
            this.region = connection.protectionDomain().allocateMemoryRegion(SIZE, ACCESS);
        }

        /** A receive into bytes 1024..2047 of the region. */
        void postReceive(long wrId) {
            connection.queuePair().postReceive(receive.wrId(wrId).sge(0, region, 1024, 1024));
        }

        void sendText(String text) {
            byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
            region.memory().asSlice(3584, bytes.length).copyFrom(java.lang.foreign.MemorySegment.ofArray(bytes));
            post(send.opcode(WorkRequestOpcode.SEND).sge(0, region, 3584, bytes.length));
        }

        /** Waits for the receive {@code wrId} and returns its text. */
        String awaitText(long wrId) {
            int length = await(wrId);
            byte[] bytes = region.memory().asSlice(1024, length).toArray(ValueLayout.JAVA_BYTE);
            return new String(bytes, StandardCharsets.UTF_8);
        }

        /** Posts one signaled request and waits for its completion. */
        void post(SendWorkRequest request) {
            long wrId = nextWrId++;
            connection.queuePair().postSend(request.wrId(wrId).signaled(true));
            await(wrId);
        }

        /**
         * Polls until the completion of {@code wrId} arrives, failing after {@link #WAIT}; others
         * that arrive first (a receive while a send is awaited) are kept for their own wait.
         *
         * @return the completion's byte length
         */
        private int await(long wrId) {
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (!arrived.containsKey(wrId)) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("no completion for wr_id " + wrId + " within " + WAIT);
                }
                int polled = connection.completionQueue().poll(completions);
                for (int i = 0; i < polled; i++) {
                    completions.throwIfFailed(i);
                    arrived.put(completions.wrId(i), completions.byteLength(i));
                }
                Thread.onSpinWait();
            }
            return arrived.remove(wrId);
        }
    }
}
