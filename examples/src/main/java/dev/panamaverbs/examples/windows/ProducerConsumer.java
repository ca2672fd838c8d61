package dev.panamaverbs.examples.windows;

import dev.panamaverbs.cm.ConnectionOptions;
import dev.panamaverbs.cm.RdmaConnection;
import dev.panamaverbs.cm.RdmaListener;
import dev.panamaverbs.onesided.ChannelFailedException;
import dev.panamaverbs.onesided.OneSidedChannel;
import dev.panamaverbs.onesided.RemoteSlot;
import dev.panamaverbs.onesided.RemoteWindow;
import dev.panamaverbs.onesided.SignalSlot;
import dev.panamaverbs.onesided.Window;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;

/**
 * One-sided windows between two processes: a producer pushes records into a ring in the
 * consumer's {@link Window} with {@link OneSidedChannel#putWithSignal putWithSignal}, and the
 * consumer, which posts nothing to receive them, is woken by the signal
 * ({@link OneSidedChannel#waitSignal waitSignal}) and checks each record. The consumer hands
 * ring entries back with signals on the producer's window (credit), so the producer never
 * overwrites a record not yet read.
 *
 * <pre>
 * consumer ADDRESS PORT [COUNT]   listens (rdma_cm) on ADDRESS:PORT, receives COUNT records (default 1000)
 * producer ADDRESS PORT [COUNT]   connects to the consumer there and pushes COUNT records
 * </pre>
 *
 * Each side connects with rdma_cm ({@link RdmaListener}, {@link RdmaConnection}), allocates its
 * window, swaps window descriptors with the peer ({@link DescriptorSwap}: one SEND each way) and
 * opens a channel on the connection's queue pair. Every wait is bounded; a failed operation, a
 * peer that disappears (its operations fail with RETRY_EXC_ERR after rdma_cm's retries) or a
 * record that is not what its signal promised ends the program with exit status 1.
 */
public final class ProducerConsumer {
    static final Duration WAIT = Duration.ofSeconds(60);
    /** The consumer returns credit every this many records. */
    static final int CREDIT_EVERY = 4;
    /** Records the consumer prints in full: the first few and the last. */
    private static final int SHOWN = 3;

    private ProducerConsumer() {}

    /**
     * {@code consumer|producer ADDRESS PORT [COUNT]}.
     *
     * @param args the role, the address to listen on or connect to, the port, the record count
     */
    public static void main(String[] args) {
        if (args.length < 3 || args.length > 4 || !(args[0].equals("consumer") || args[0].equals("producer"))) {
            System.err.println("usage: ProducerConsumer consumer|producer ADDRESS PORT [COUNT]");
            System.exit(2);
        }
        try {
            InetSocketAddress address = new InetSocketAddress(InetAddress.getByName(args[1]), Integer.parseInt(args[2]));
            long count = args.length == 4 ? Long.parseLong(args[3]) : 1000;
            if (args[0].equals("consumer")) {
                consume(address, count, System.out);
            } else {
                produce(address, count, System.out);
            }
        } catch (ChannelFailedException e) {
            System.err.println(args[0] + ": FAILED with completion status " + e.status() + ": " + e.getMessage());
            System.exit(1);
        } catch (Exception e) {
            System.err.println(args[0] + ": FAILED: " + e);
            System.exit(1);
        }
    }

    /** Listens, accepts one producer and receives {@code count} records. */
    static void consume(InetSocketAddress address, long count, PrintStream out) throws InterruptedException {
        try (RdmaListener listener = RdmaListener.listen(address, ConnectionOptions.defaults())) {
            out.println("consumer: listening on " + listener.localAddress());
            try (RdmaConnection connection = listener.accept(Duration.ofSeconds(180))) {
                withWindows(connection, "consumer", "producer", out, (window, channel, producer) -> {
                    SignalSlot arrived = window.slot(RecordRing.SIGNAL_OFFSET);
                    RemoteSlot credit = producer.slot(RecordRing.SIGNAL_OFFSET);
                    long started = System.nanoTime();
                    long ticket = 0;
                    for (long n = 1; n <= count; n++) {
                        channel.waitSignal(arrived, n, WAIT); // woken once record n and every earlier one are in
                        String text = RecordRing.read(window.memory(), n);
                        if (n <= SHOWN || n == count) {
                            out.println("consumer: record " + n + ": \"" + text + "\"");
                        }
                        if (n % CREDIT_EVERY == 0 || n == count) {
                            ticket = channel.signal(credit, n % CREDIT_EVERY == 0 ? CREDIT_EVERY : n % CREDIT_EVERY, false);
                        }
                    }
                    channel.waitLocal(ticket, WAIT);
                    out.printf("consumer: %d records received in order in %d ms, each checked when its signal arrived%n",
                            count, (System.nanoTime() - started) / 1_000_000);
                    if (!connection.awaitDisconnect(WAIT)) {
                        throw new IllegalStateException("the producer did not disconnect within " + WAIT.toSeconds() + " s");
                    }
                    out.println("consumer: the producer disconnected");
                });
            }
        }
    }

    /** Connects to the consumer and pushes {@code count} records, then waits until all were read. */
    static void produce(InetSocketAddress consumer, long count, PrintStream out) throws InterruptedException {
        // The consumer may be a cold JVM on a slow host: give its accept the same minute as every other wait.
        ConnectionOptions options = ConnectionOptions.builder().connectTimeout(WAIT).build();
        try (RdmaConnection connection = RdmaConnection.connect(consumer, options)) {
            withWindows(connection, "producer", "consumer", out, (window, channel, ring) -> {
                RemoteSlot arrived = ring.slot(RecordRing.SIGNAL_OFFSET);
                SignalSlot credit = window.slot(RecordRing.SIGNAL_OFFSET);
                long started = System.nanoTime();
                for (long n = 1; n <= count; n++) {
                    if (n > RecordRing.ENTRIES) {
                        channel.waitSignal(credit, n - RecordRing.ENTRIES, WAIT); // the entry is free again
                    }
                    RecordRing.write(window.memory(), n);
                    long at = RecordRing.offset(n);
                    channel.putWithSignal(ring, at, window, at, RecordRing.RECORD_BYTES, arrived, 1);
                    if (n == 1) {
                        out.println("producer: pushing records"); // the exchange is under way
                    }
                }
                channel.waitSignal(credit, count, WAIT);
                out.printf("producer: %d records pushed in %d ms, all read by the consumer%n", count,
                        (System.nanoTime() - started) / 1_000_000);
                if (!connection.disconnect(WAIT)) {
                    throw new IllegalStateException("the consumer did not answer the disconnect within " + WAIT.toSeconds() + " s");
                }
            });
        }
    }

    /** What a side does once connected: with its window, a channel on the connection and the peer's window. */
    @FunctionalInterface
    private interface Connected {
        void run(Window window, OneSidedChannel channel, RemoteWindow peer) throws InterruptedException;
    }

    /**
     * Both sides' start: allocates this side's window, opens a channel on the connection's queue
     * pair, swaps window descriptors with the peer ({@link DescriptorSwap}), says so as {@code role},
     * runs {@code connected}, then closes the channel and the window.
     */
    private static void withWindows(RdmaConnection connection, String role, String peerRole, PrintStream out,
                                    Connected connected) throws InterruptedException {
        try (Window window = Window.allocate(connection.protectionDomain(), RecordRing.WINDOW_BYTES);
             OneSidedChannel channel = OneSidedChannel.open(connection.queuePair())) {
            RemoteWindow peer = RemoteWindow.open(DescriptorSwap.swap(connection, window.descriptor(), WAIT));
            out.println(role + ": connected to " + connection.remoteAddress() + ", " + peerRole + "'s window " + peer);
            connected.run(window, channel, peer);
        }
    }
}
