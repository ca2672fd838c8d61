package dev.panamaverbs.perftest.interop.resident;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panamaverbs.it.support.PeerPairing.Listening;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** The resident twin's jobs without a device: exit status and output as {@code java -jar} gives them, and a lost connection. */
class ResidentTwinTest {
    @Test
    void aJobEndsWithTheTwinsStatusAndItsOutputInOrder() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread.ofVirtual().start(() -> {
                try {
                    ResidentTwin.acceptJobs(server);
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            InetSocketAddress address = (InetSocketAddress) server.getLocalSocketAddress();
            // a refused option: perftest's text on stderr, then the usage on stdout, exit 1
            ResidentTwinProcess refused = ResidentTwinProcess.start("java send_bw server", "host A", address,
                    List.of("send_bw", "--no-such-option"), Listening.NONE, 0);
            assertEquals(OptionalInt.of(1), refused.awaitExit(Duration.ofSeconds(30)), refused.describe());
            String output = refused.output();
            assertTrue(output.startsWith("perftest: "), output);
            assertTrue(output.indexOf("no-such-option") < output.indexOf("Usage:"), output);
            assertFalse(refused.isAlive());
            assertFalse(refused.isListening());
            assertTrue(refused.firstOutputAt().isPresent());
            assertTrue(refused.describe().contains("(resident twin on host A): perftest send_bw --no-such-option"),
                    refused.describe());
            // two jobs at once, each with its own output
            ResidentTwinProcess first = ResidentTwinProcess.start("a", "host A", address, List.of("write_bw", "-s", "0"),
                    Listening.NONE, 0);
            ResidentTwinProcess second = ResidentTwinProcess.start("b", "host A", address, List.of("read_lat", "-n", "1"),
                    Listening.NONE, 0);
            assertEquals(OptionalInt.of(1), first.awaitExit(Duration.ofSeconds(30)));
            assertEquals(OptionalInt.of(1), second.awaitExit(Duration.ofSeconds(30)));
            assertTrue(first.output().contains("size should be between") && !first.output().contains("Iteration num"),
                    first.output());
            assertTrue(second.output().contains("Iteration num should be between") && !second.output().contains("size should"),
                    second.output());
        }
    }

    @Test
    void aConnectionLostMidJobEndsItAsKilledWithWhatCameBefore() throws Exception {
        try (ServerSocket fake = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread.ofVirtual().start(() -> {
                try (Socket socket = fake.accept()) {
                    ResidentTwinFrames.Request.read(new DataInputStream(socket.getInputStream()));
                    DataOutputStream out = new DataOutputStream(socket.getOutputStream());
                    byte[] line = "half a run\n".getBytes(StandardCharsets.UTF_8);
                    out.writeByte(ResidentTwinFrames.OUTPUT);
                    out.writeInt(line.length);
                    out.write(line);
                    out.writeByte(ResidentTwinFrames.LISTENING);
                    out.flush();
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            ResidentTwinProcess job = ResidentTwinProcess.start("java send_bw server", "host B",
                    (InetSocketAddress) fake.getLocalSocketAddress(), List.of("send_bw"), Listening.TCP, 18600);
            assertEquals(OptionalInt.of(ResidentTwinFrames.KILLED), job.awaitExit(Duration.ofSeconds(30)));
            assertTrue(job.isListening());
            assertTrue(job.output().startsWith("half a run\nresident twin: the job's connection ended"), job.output());
        }
    }
}
