package dev.panamaverbs.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The link controller against a stand-in for QEMU's monitor on a Unix socket, and its refusals. */
class LinkControlTest {
    @TempDir
    Path run;

    /** Accepts one QMP session: greeting, then answers each command line with {@code answer} (capabilities: return). */
    private Thread fakeQmp(Path socket, String answer, List<String> received) throws Exception {
        ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        server.bind(UnixDomainSocketAddress.of(socket));
        return Thread.ofVirtual().start(() -> {
            try (server; SocketChannel client = server.accept()) {
                BufferedReader in = new BufferedReader(new InputStreamReader(Channels.newInputStream(client), StandardCharsets.UTF_8));
                OutputStream out = Channels.newOutputStream(client);
                out.write("{\"QMP\": {\"version\": {}, \"capabilities\": []}}\n".getBytes(StandardCharsets.UTF_8));
                for (String line; (line = in.readLine()) != null; ) {
                    received.add(line);
                    String reply = line.contains("qmp_capabilities") ? "{\"return\": {}}"
                            : "{\"timestamp\": {}, \"event\": \"NIC_RX_FILTER_CHANGED\"}\n" + answer;
                    out.write((reply + "\n").getBytes(StandardCharsets.UTF_8));
                }
            } catch (Exception e) {
                received.add("server failed: " + e);
            }
        });
    }

    @Test
    void aPulledCableIsSetLinkDownOnTheLinkNetdevOfThatHost() throws Exception {
        List<String> received = new CopyOnWriteArrayList<>();
        Thread qemu = fakeQmp(run.resolve("qmp-b.sock"), "{\"return\": {}}", received);
        assertEquals("ok", new LinkControl(run).perform("b link-down"));
        qemu.join(5000);
        assertEquals(List.of("{\"execute\":\"qmp_capabilities\"}",
                "{\"execute\":\"set_link\",\"arguments\":{\"name\":\"link\",\"up\":false}}"), received);
    }

    @Test
    void qemusErrorIsPassedOn() throws Exception {
        List<String> received = new CopyOnWriteArrayList<>();
        fakeQmp(run.resolve("qmp-a.sock"), "{\"error\": {\"class\": \"GenericError\", \"desc\": \"no such device\"}}", received);
        String answer = new LinkControl(run).perform("a freeze");
        assertTrue(answer.startsWith("error: ") && answer.contains("no such device"), answer);
        assertTrue(received.contains("{\"execute\":\"stop\"}"), received.toString());
    }

    @Test
    void onlyTheFixedActionsOnHostsAAndBAreTaken() {
        LinkControl control = new LinkControl(run);
        assertTrue(control.perform("c link-down").startsWith("error: a request is 'HOST ACTION'"));
        assertTrue(control.perform("b quit").startsWith("error: unknown action 'quit'"));
        assertTrue(control.perform("b").startsWith("error: "));
        assertTrue(control.perform("b thaw").startsWith("error: QMP on host b"), "no socket: " + control.perform("b thaw"));
    }

    @Test
    void servesRequestFilesUntilTheStopMark() throws Exception {
        Path folder = run.resolve("two-host").resolve(LinkControl.FOLDER);
        Files.createDirectories(folder);
        Files.writeString(folder.resolve("001-x.request"), "b dance\n");
        Thread serving = Thread.ofVirtual().start(() -> {
            try {
                new LinkControl(run).serve();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        Path done = folder.resolve("001-x.done");
        for (int i = 0; i < 200 && !Files.exists(done); i++) {
            Thread.sleep(25);
        }
        assertTrue(Files.readString(done).startsWith("error: unknown action 'dance'"));
        Files.createFile(run.resolve("two-host").resolve("stop"));
        serving.join(5000);
        assertTrue(!serving.isAlive(), "the stop mark ends it");
    }
}
