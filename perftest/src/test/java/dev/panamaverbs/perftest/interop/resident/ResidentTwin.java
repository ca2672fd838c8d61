package dev.panamaverbs.perftest.interop.resident;

import dev.panamaverbs.it.support.PeerPairing.Listening;
import dev.panamaverbs.perftest.Perftest;
import dev.panamaverbs.perftest.interop.resident.ResidentTwinFrames.Request;
import dev.panamaverbs.perftest.interop.resident.ResidentTwinFrames.Sender;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The perftest twin kept running on one host of the interop tests: one JVM that runs each job's
 * twin invocation ({@link Perftest#execute}, the code behind {@code java -jar verbs-perftest.jar})
 * on a thread of its own, where each pairing side used to start a JVM. Under TCG a twin's JVM took
 * 6-10 s from its start to its first line, and its test 1-5 s (docs/suite-time.md). A job's
 * listener is looked for on this host, as B's peer agent looks for a command's.
 * <pre>
 * java --enable-native-access=ALL-UNNAMED -cp verbs-perftest.jar:TEST_CLASSES... \
 *     dev.panamaverbs.perftest.interop.resident.ResidentTwin PORT
 * </pre>
 * ({@link ResidentTwins#command} builds it: the twin's classes come from its jar, as they do for
 * {@code java -jar}.)
 * It listens on every address: the tests on host A reach host B's resident over the link. A job
 * ends with the twin's exit status; a job whose test asked to kill it (or went away) is
 * interrupted, and its connection closes; the twin's own {@code --timeout} bounds what it still
 * waits for.
 */
public final class ResidentTwin {
    private ResidentTwin() {}

    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: ResidentTwin PORT");
            System.exit(2);
        }
        warmUp();
        try (ServerSocket server = new ServerSocket()) {
            server.setReuseAddress(true);
            server.bind(new InetSocketAddress(Integer.parseInt(args[0])));
            System.out.println("resident twin: listening on " + server.getLocalSocketAddress());
            acceptJobs(server);
        }
    }

    /**
     * Loads the library and the twin's classes before the resident listens (an invocation on a
     * device that does not exist: parsed, libibverbs loaded, its devices listed), so that the
     * first job does not do that on the host's one emulated CPU beside a C peer that serves.
     */
    private static void warmUp() {
        PrintStream discard = new PrintStream(java.io.OutputStream.nullOutputStream(), true, StandardCharsets.UTF_8);
        int status = Perftest.execute(new String[] {"send_bw", "-d", "resident-twin-warm-up", "--timeout", "1"}, discard, discard);
        System.out.println("resident twin: warmed up (exit " + status + ", as expected without that device)");
    }

    /** Takes jobs from {@code server}, each on a thread of its own, until the socket is closed. */
    static void acceptJobs(ServerSocket server) throws IOException {
        for (int job = 1; ; job++) {
            Socket socket;
            try {
                socket = server.accept();
            } catch (java.net.SocketException closed) {
                if (server.isClosed()) {
                    return;
                }
                throw closed;
            }
            Thread.ofPlatform().name("resident job " + job).daemon().start(() -> serve(socket));
        }
    }

    /** Runs one job: reads its request, runs the twin, streams what it prints, and ends with its status. */
    private static void serve(Socket socket) {
        try (socket) {
            DataInputStream in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
            Request request = Request.read(in);
            Sender sender = new Sender(new BufferedOutputStream(socket.getOutputStream()));
            Listening listening = Listening.valueOf(request.listening());
            // one stream for stdout and stderr, as a child process's merged output: the order printed is kept
            PrintStream printed = new PrintStream(sender.printed(), true, StandardCharsets.UTF_8);
            AtomicInteger status = new AtomicInteger(ResidentTwinFrames.KILLED);
            Thread twin = Thread.ofPlatform().name("twin " + String.join(" ", request.args())).start(() ->
                    status.set(run(request, printed)));
            Thread.ofVirtual().start(() -> interruptWhenAsked(in, twin));
            boolean seen = listening == Listening.NONE;
            while (twin.isAlive()) {
                if (!seen && listening.onThisHost(request.port())) {
                    sender.listening();
                    seen = true;
                }
                twin.join(seen ? 1000 : 100);
            }
            printed.flush();
            sender.exit(status.get());
        } catch (IOException | RuntimeException e) {
            // the test went away (its connection closed): nothing to report to
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static int run(Request request, PrintStream printed) {
        try {
            return Perftest.execute(request.args().toArray(String[]::new), printed, printed);
        } catch (Throwable t) { // what ToolMain does not catch (an Error): reported as the job's end, not lost in this JVM
            printed.println("resident twin: the invocation threw " + t);
            return 1;
        }
    }

    /** Interrupts the twin when the test asks ({@link ResidentTwinFrames#KILL}) or goes away. */
    private static void interruptWhenAsked(DataInputStream in, Thread twin) {
        try {
            in.read();
        } catch (IOException e) {
            // closed: the same as a kill while the twin runs
        }
        if (twin.isAlive()) {
            twin.interrupt();
        }
    }
}
