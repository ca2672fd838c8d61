package dev.panamaverbs.it.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panamaverbs.Completions;
import dev.panamaverbs.QueuePair;
import dev.panamaverbs.ReceiveWorkRequest;
import dev.panamaverbs.SendWorkRequest;
import dev.panamaverbs.testkit.CompletionWaiter;
import dev.panamaverbs.testkit.DeviceTest;
import dev.panamaverbs.testkit.RcLoopbackPair;
import dev.panamaverbs.testkit.TestDevice;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.jar.JarFile;
import java.util.zip.ZipFile;
import java.util.stream.Stream;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordingFile;

/**
 * The walk of one send (issue 20): which of the library's source files run code while
 * {@code QueuePair.postSend} posts a signaled SEND of one region entry on an RC queue pair, up to
 * the {@code ibv_post_send} downcall. JFR's method tracing ({@code jdk.MethodTrace}) instruments
 * every class of verbs-core, verbs-loader and the generated invokers; the post is made once
 * before recording (class initialisation is not the walk) and once while recording. At most six
 * files: the queue pair, its send path, the resource base, the request and its base, and the
 * gateway's ops table.
 */
class PostSendWalkDeviceTest {
    /** The gateway's data-path class and the generated invokers' runtime, named (not exported to tests). */
    private static final String OPS_TABLE = "dev.panamaverbs.gateway.OpsTable";
    private static final String DOWNCALLS = "dev.panamaverbs.ffm.invoke.Downcalls";

    @DeviceTest
    void aPlainSendRunsCodeOfAtMostSixFiles(TestDevice device) throws IOException {
        try (RcLoopbackPair pair = RcLoopbackPair.open(device); Arena arena = Arena.ofConfined()) {
            Completions wc = Completions.allocate(arena, 1);
            ReceiveWorkRequest receive = ReceiveWorkRequest.allocate(arena, 1).wrId(100)
                    .sge(0, pair.secondBuffer().region(), 0, 64);
            SendWorkRequest send = SendWorkRequest.allocate(arena, 1).wrId(1).signaled(true)
                    .sge(pair.firstBuffer().region(), 0, 64);
            sendOnce(pair, receive, send, wc); // warm: class initialisation and resolution are not the walk

            List<RecordedEvent> entered;
            try (Recording recording = new Recording()) {
                recording.enable("jdk.MethodTrace").with("filter", String.join(";", libraryClasses()));
                pair.second().postReceive(receive);
                recording.start();
                pair.first().postSend(send);
                recording.stop();
                Path file = Files.createTempFile("post-send-walk", ".jfr");
                try {
                    recording.dump(file);
                    entered = RecordingFile.readAllEvents(file).stream()
                            .filter(e -> e.getThread() != null && e.getThread().getJavaThreadId() == Thread.currentThread().threadId())
                            .sorted(Comparator.comparing(RecordedEvent::getStartTime))
                            .toList();
                } finally {
                    Files.deleteIfExists(file);
                }
            }
            awaitBoth(pair, wc);

            Set<String> files = new LinkedHashSet<>();
            List<String> walk = new ArrayList<>();
            for (RecordedEvent e : entered) {
                RecordedMethod method = e.getValue("method");
                String type = method.getType().getName();
                String sourceFile = type.contains("$") ? type.substring(0, type.indexOf('$')) : type;
                files.add(sourceFile);
                walk.add(type.substring(type.lastIndexOf('.') + 1) + "." + method.getName());
            }
            System.out.println("# PostSendWalkDeviceTest: " + files.size() + " files " + files);
            System.out.println("# PostSendWalkDeviceTest: walk " + walk);
            assertTrue(files.contains(QueuePair.class.getName()), "postSend itself was traced: " + walk);
            assertTrue(files.contains(OPS_TABLE), "the gateway was traced: " + walk);
            assertTrue(files.size() <= 6, files.size() + " files: " + files + "; walk " + walk);
        }
    }

    private static void sendOnce(RcLoopbackPair pair, ReceiveWorkRequest receive, SendWorkRequest send, Completions wc) {
        pair.second().postReceive(receive);
        pair.first().postSend(send);
        awaitBoth(pair, wc);
    }

    private static void awaitBoth(RcLoopbackPair pair, Completions wc) {
        CompletionWaiter.awaitSuccess(pair.firstQueue(), wc);
        assertEquals(1, wc.wrId(0));
        CompletionWaiter.awaitSuccess(pair.secondQueue(), wc);
        assertEquals(100, wc.wrId(0));
    }

    /**
     * The binary names of every class of verbs-core, verbs-loader and the generated invokers
     * ({@code dev.panamaverbs.ffm.invoke}), from their jars or class directories.
     */
    static List<String> libraryClasses() {
        List<String> names = new ArrayList<>();
        for (String member : new String[] {QueuePair.class.getName(), OPS_TABLE, DOWNCALLS}) {
            Path root;
            try {
                root = Path.of(Class.forName(member).getProtectionDomain().getCodeSource().getLocation().toURI());
            } catch (URISyntaxException | ClassNotFoundException e) {
                throw new IllegalStateException(e);
            }
            String only = member.equals(DOWNCALLS) ? "dev/panamaverbs/ffm/invoke/" : "dev/panamaverbs/";
            for (String entry : classEntries(root)) {
                if (entry.startsWith(only) && entry.endsWith(".class") && !entry.endsWith("module-info.class")) {
                    names.add(entry.substring(0, entry.length() - ".class".length()).replace('/', '.'));
                }
            }
        }
        return names;
    }

    private static List<String> classEntries(Path root) {
        try {
            if (Files.isDirectory(root)) {
                try (Stream<Path> walk = Files.walk(root)) {
                    return walk.map(p -> root.relativize(p).toString().replace('\\', '/')).toList();
                }
            }
            // Opened for this runtime's version: the library jars are multi-release, their classes
            // under META-INF/versions/22 (docs/multi-release.md); versionedStream names them as loaded.
            try (JarFile jar = new JarFile(root.toFile(), true, ZipFile.OPEN_READ, Runtime.version())) {
                return jar.versionedStream().map(e -> e.getName()).toList();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
