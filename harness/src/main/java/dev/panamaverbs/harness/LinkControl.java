package dev.panamaverbs.harness;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.stream.Stream;

/**
 * The host's side of the two-host fault tests: what a guest cannot do to itself, done to a VM
 * from outside through QEMU's monitor (QMP). Host A's tests write a request file into
 * {@code <two-host dir>/link-control/} ({@code NAME.request}: one line, {@code HOST ACTION} with
 * HOST {@code a} or {@code b}); this process runs it on that VM's QMP socket
 * ({@code <run>/qmp-HOST.sock}) and answers in {@code NAME.done}: {@code ok}, or
 * {@code error: ...}. The actions are a fixed set:
 * <ul>
 * <li>{@code link-down} / {@code link-up}: QMP {@code set_link} on the link NIC's netdev: a
 *     pulled and a replugged cable (the guest sees the carrier go);</li>
 * <li>{@code freeze} / {@code thaw}: QMP {@code stop} / {@code cont}: the whole VM stops, which the
 *     other host cannot tell from a power cut, and then goes on.</li>
 * </ul>
 * It runs until {@code <two-host dir>/stop} exists (scripts/vm.sh writes it when host A is done).
 * <pre>harness --root DIR link-control RUN_DIR</pre>
 */
final class LinkControl {
    static final String FOLDER = "link-control";
    private static final long POLL_MILLIS = 50;

    private final Path run;
    private final Path requests;

    LinkControl(Path run) {
        this.run = run;
        this.requests = run.resolve("two-host").resolve(FOLDER);
    }

    /** Serves requests until the run's stop mark appears. */
    void serve() throws IOException, InterruptedException {
        Files.createDirectories(requests);
        Path stop = run.resolve("two-host").resolve("stop");
        while (!Files.exists(stop)) {
            List<Path> pending;
            try (Stream<Path> files = Files.list(requests)) {
                pending = files.filter(f -> f.getFileName().toString().endsWith(".request")).sorted().toList();
            }
            for (Path request : pending) {
                String name = request.getFileName().toString().replaceFirst("\\.request$", "");
                Path done = requests.resolve(name + ".done");
                if (!Files.exists(done)) {
                    answer(done, perform(Files.readString(request).strip()));
                }
            }
            Thread.sleep(POLL_MILLIS);
        }
    }

    /** Runs one request line; returns "ok" or "error: ...". */
    String perform(String line) {
        String[] words = line.split(" ");
        if (words.length != 2 || !(words[0].equals("a") || words[0].equals("b"))) {
            return "error: a request is 'HOST ACTION' with HOST a or b, got '" + line + "'";
        }
        String command = switch (words[1]) {
            case "link-down" -> "{\"execute\":\"set_link\",\"arguments\":{\"name\":\"link\",\"up\":false}}";
            case "link-up" -> "{\"execute\":\"set_link\",\"arguments\":{\"name\":\"link\",\"up\":true}}";
            case "freeze" -> "{\"execute\":\"stop\"}";
            case "thaw" -> "{\"execute\":\"cont\"}";
            default -> null;
        };
        if (command == null) {
            return "error: unknown action '" + words[1] + "' (link-down, link-up, freeze, thaw)";
        }
        try {
            return qmp(run.resolve("qmp-" + words[0] + ".sock"), command);
        } catch (IOException e) {
            return "error: QMP on host " + words[0] + ": " + e.getMessage();
        }
    }

    /** One QMP session: the greeting, capabilities negotiation, then the command and its answer. */
    static String qmp(Path socket, String command) throws IOException {
        try (SocketChannel channel = SocketChannel.open(UnixDomainSocketAddress.of(socket))) {
            BufferedReader in = new BufferedReader(new InputStreamReader(Channels.newInputStream(channel), StandardCharsets.UTF_8));
            OutputStream out = Channels.newOutputStream(channel);
            expect(in, "QMP", "greeting");
            out.write("{\"execute\":\"qmp_capabilities\"}\n".getBytes(StandardCharsets.UTF_8));
            expect(in, "\"return\"", "qmp_capabilities");
            out.write((command + "\n").getBytes(StandardCharsets.UTF_8));
            String answer = expect(in, null, command);
            return answer.contains("\"return\"") ? "ok" : "error: " + answer;
        }
    }

    /** The next line that is not an asynchronous event; it must contain {@code token} when given. */
    private static String expect(BufferedReader in, String token, String what) throws IOException {
        for (String line; (line = in.readLine()) != null; ) {
            if (line.contains("\"event\"")) {
                continue;
            }
            if (token != null && !line.contains(token)) {
                throw new IOException("unexpected answer to " + what + ": " + line);
            }
            return line;
        }
        throw new IOException("QMP closed the connection before answering " + what);
    }

    private static void answer(Path done, String text) throws IOException {
        Path temporary = done.resolveSibling(done.getFileName() + ".tmp");
        Files.writeString(temporary, text + "\n");
        Files.move(temporary, done, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }
}
