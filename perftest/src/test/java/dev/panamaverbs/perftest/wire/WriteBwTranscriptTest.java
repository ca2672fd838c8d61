package dev.panamaverbs.perftest.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import dev.panamaverbs.values.Gid;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * Our client's side of ib_write_bw's out-of-band conversation, step by step as the Java client
 * runs it, against what Debian's ib_write_bw 4.5 server sent on the wire
 * ({@code ib_write_bw-server.transcript}, captured through a logging proxy on rxe): the server's
 * bytes are replayed, and every one of our sends must be the size the C client's was, in order.
 */
class WriteBwTranscriptTest {
    private record Step(boolean fromClient, byte[] bytes, int size) {}

    private static List<Step> transcript() throws IOException {
        List<Step> steps = new ArrayList<>();
        try (InputStream in = WriteBwTranscriptTest.class.getResourceAsStream("/ib_write_bw-server.transcript")) {
            assertNotNull(in);
            for (String line : new String(in.readAllBytes(), StandardCharsets.US_ASCII).split("\n")) {
                if (line.startsWith("#") || line.isBlank()) {
                    continue;
                }
                String[] f = line.split(" ");
                int size = Integer.parseInt(f[1]);
                byte[] bytes = size == 0 ? new byte[0] : HexFormat.of().parseHex(f[2]);
                steps.add(new Step(f[0].equals("C->S"), bytes, size));
            }
        }
        return steps;
    }

    @Test
    void ourClientAgainstPerftestsServer() throws Exception {
        List<Step> steps = transcript();
        try (ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            CompletableFuture<List<byte[]>> server = CompletableFuture.supplyAsync(() -> {
                List<byte[]> received = new ArrayList<>();
                try (Socket socket = listener.accept()) {
                    DataInputStream in = new DataInputStream(socket.getInputStream());
                    OutputStream out = socket.getOutputStream();
                    for (Step step : steps) {
                        if (step.fromClient()) {
                            byte[] got = new byte[step.size()];
                            in.readFully(got);
                            received.add(got);
                        } else if (step.size() == 0) {
                            socket.shutdownOutput();
                        } else {
                            out.write(step.bytes());
                        }
                    }
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
                return received;
            });
            Gid gid = Gid.parse("::ffff:10.0.2.15");
            KeyMessage mine = new KeyMessage(0, 1, 0x12, 0xe2b7f2, 0x339, 0x55cd35d52000L, gid, 0);
            try (OobChannel channel = OobChannel.connect("127.0.0.1", listener.getLocalPort(), Duration.ofSeconds(5))) {
                Preamble preamble = Preamble.run(channel, 4096, 64, 3);
                assertEquals(new Preamble("6.06", 4096, 64, 3), preamble);
                KeyMessage theirs = null;
                for (int i = 0; i < 2; i++) {
                    theirs = channel.handShake(mine, "the key exchange");
                }
                assertEquals(new KeyMessage(0, 1, 0x11, 0x44ac2b, 0x257, 0x55d53a564000L, gid, 0), theirs);
                channel.handShake(mine, "the hand shake after RTR");
                // (the client runs the test here)
                channel.handShake(mine, "the hand shake at the end of test");
                new BandwidthReportWire(65536, 5, 58.85, 24.86, 0.000398).exchange(channel);
                channel.handShake(mine, "the closing hand shake");
                channel.finish();
            }
            List<byte[]> ours = server.get();
            List<Step> theirs = steps.stream().filter(Step::fromClient).toList();
            assertEquals(theirs.size(), ours.size());
            for (int i = 0; i < ours.size(); i++) {
                assertEquals(theirs.get(i).size(), ours.get(i).length, "send " + i);
            }
            assertArrayEquals(theirs.get(0).bytes(), ours.get(0), "the version");
            assertArrayEquals(theirs.get(3).bytes(), ours.get(3), "the MTU");
            assertArrayEquals(theirs.get(4).bytes(), ours.get(4), "the key message, byte for byte");
            assertArrayEquals(theirs.getLast().bytes(), ours.getLast(), "done");
        }
    }
}
