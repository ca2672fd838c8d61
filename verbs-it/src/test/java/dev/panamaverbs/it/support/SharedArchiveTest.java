package dev.panamaverbs.it.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which JVM options a launched jar gets: its run's archive when scripts/jvm-cache.sh published one, else none. */
class SharedArchiveTest {
    @TempDir
    Path dir;

    private Optional<TwoHostEnvironment> environment() {
        InetAddress a = InetAddress.getLoopbackAddress();
        return Optional.of(new TwoHostEnvironment(dir, "a", a, a, "rxe1", dir.resolve("b")));
    }

    @Test
    void outsideATwoHostRunNoArchive() {
        assertEquals(List.of(), SharedArchive.optionsFor(Optional.empty(), Path.of("perftest/target/verbs-perftest.jar")));
    }

    @Test
    void noArchiveYetNoOptions() {
        assertEquals(List.of(), SharedArchive.optionsFor(environment(), Path.of("/x/verbs-perftest.jar")));
    }

    @Test
    void thePublishedArchiveOfTheJarIsUsedReadOnlyAndQuietly() throws Exception {
        Path archive = dir.resolve(SharedArchive.FOLDER).resolve("verbs-perftest.jsa");
        assertEquals(List.of(), SharedArchive.optionsFor(environment(), Path.of("/x/verbs-perftest.jar")));
        Files.createDirectories(archive.getParent());
        Files.write(archive, new byte[] {1});
        List<String> options = SharedArchive.optionsFor(environment(), Path.of("/x/verbs-perftest.jar"));
        assertEquals(List.of("-XX:SharedArchiveFile=" + archive, "-Xlog:cds*=off,aot*=off"), options);
        assertTrue(options.stream().noneMatch(option -> option.startsWith("-Xshare")), "never -Xshare:on: a bad archive is ignored");
        assertEquals(List.of(), SharedArchive.optionsFor(environment(), Path.of("/x/other.jar")), "another jar's archive is its own");
    }
}
