package dev.panamaverbs.perftest.interop.resident;

import dev.panamaverbs.it.support.PeerPairing.Listening;
import dev.panamaverbs.it.support.CollectingPeerProcess;
import dev.panamaverbs.perftest.interop.resident.ResidentTwinFrames.Request;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One twin invocation run as a job of a host's {@link ResidentTwin}, seen as a peer process: its
 * output as the resident streams it, its listener as the resident sees it on its host, and its
 * exit status. A kill asks the resident to interrupt the job and closes the connection.
 */
final class ResidentTwinProcess extends CollectingPeerProcess {
    private static final int CONNECT_MILLIS = 10_000;

    private final Socket socket;
    private final DataOutputStream toResident;
    private final CompletableFuture<Integer> exit = new CompletableFuture<>();
    private final Thread reader;
    private volatile boolean listening;

    private ResidentTwinProcess(String label, String where, List<String> args, Socket socket) throws IOException {
        super(label, "resident twin on " + where, prefixed(args));
        this.socket = socket;
        this.toResident = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream()));
        DataInputStream in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
        this.reader = Thread.ofVirtual().name("resident job " + label).start(() -> read(in));
    }

    /** The report's command line: the twin's, as {@code java -jar} would run it. */
    private static List<String> prefixed(List<String> args) {
        List<String> command = new java.util.ArrayList<>(List.of("perftest"));
        command.addAll(args);
        return command;
    }

    /** Starts {@code args} as a job of the resident at {@code resident} ({@code where} names its host). */
    static ResidentTwinProcess start(String label, String where, InetSocketAddress resident, List<String> args,
            Listening listening, int port) {
        Socket socket = new Socket();
        try {
            socket.connect(resident, CONNECT_MILLIS);
            ResidentTwinProcess process = new ResidentTwinProcess(label, where, args, socket);
            new Request(listening.name(), port, args).write(process.toResident);
            return process;
        } catch (IOException e) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // the failure to start is what counts
            }
            throw new UncheckedIOException("cannot start " + label + " on the resident twin at " + resident, e);
        }
    }

    private void read(DataInputStream in) {
        try {
            while (true) {
                byte frame = in.readByte();
                switch (frame) {
                    case ResidentTwinFrames.OUTPUT -> {
                        byte[] bytes = in.readNBytes(in.readInt());
                        collected.append(bytes, 0, bytes.length);
                    }
                    case ResidentTwinFrames.LISTENING -> listening = true;
                    case ResidentTwinFrames.EXIT -> {
                        exit.complete(in.readInt());
                        return;
                    }
                    default -> throw new IOException("unknown frame " + frame + " from the resident twin");
                }
            }
        } catch (IOException e) {
            if (!exit.isDone()) {
                collected.note("resident twin: the job's connection ended: " + e);
            }
            exit.complete(ResidentTwinFrames.KILLED);
        }
    }

    @Override
    public boolean isAlive() {
        return !exit.isDone();
    }

    @Override
    public boolean isListening() {
        return listening;
    }

    @Override
    public OptionalInt awaitExit(Duration timeout) throws InterruptedException {
        try {
            int status = exit.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
            reader.join(Duration.ofSeconds(5));
            return OptionalInt.of(status);
        } catch (TimeoutException e) {
            kill();
            return OptionalInt.empty();
        } catch (ExecutionException e) {
            throw new IllegalStateException("never completed exceptionally", e);
        }
    }

    @Override
    public void kill() throws InterruptedException {
        if (!exit.isDone()) {
            collected.note("resident twin: job killed by the test");
            try {
                toResident.writeByte(ResidentTwinFrames.KILL);
                toResident.flush();
            } catch (IOException e) {
                // the connection is gone already: the resident interrupts the job for that too
            }
        }
        try {
            socket.close();
        } catch (IOException e) {
            // closing is all that is left
        }
        exit.complete(ResidentTwinFrames.KILLED);
        reader.join(Duration.ofSeconds(5));
    }
}
