package dev.panamaverbs.it.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChildJvmArchiveTest {
    @TempDir
    Path temp;

    @Test
    void theFirstJvmWritesTheArchiveTheOthersWaitingStartWithoutAndTheLaterOnesReadIt() throws IOException {
        Path argFile = Files.writeString(temp.resolve("peer.args"), "--module-path\nmodules\n");
        List<String> writer = ChildJvmArchive.optionsFor(argFile, temp);
        assertEquals(2, writer.size(), writer::toString);
        String archive = writer.getFirst().substring("-XX:ArchiveClassesAtExit=".length());
        assertEquals("-XX:ArchiveClassesAtExit=" + archive, writer.getFirst());
        assertEquals(temp, Path.of(archive).getParent());
        assertEquals("-Xlog:cds*=off,aot*=off", writer.get(1));
        assertEquals(List.of(), ChildJvmArchive.optionsFor(argFile, temp), "one writer only");
        Files.write(Path.of(archive), new byte[] {1});
        assertEquals(List.of("-XX:SharedArchiveFile=" + archive, "-Xlog:cds*=off,aot*=off"),
                ChildJvmArchive.optionsFor(argFile, temp));
    }

    @Test
    void aNewStagingOfTheArgFileGetsAnArchiveOfItsOwn() throws IOException {
        Path argFile = Files.writeString(temp.resolve("peer.args"), "--module-path\nmodules\n");
        List<String> first = ChildJvmArchive.optionsFor(argFile, temp);
        Files.setLastModifiedTime(argFile, FileTime.fromMillis(Files.getLastModifiedTime(argFile).toMillis() + 60_000));
        List<String> second = ChildJvmArchive.optionsFor(argFile, temp);
        assertEquals(2, second.size(), "a writer again: " + second);
        assertNotEquals(first.getFirst(), second.getFirst());
    }

    @Test
    void noArgFileNoArchive() {
        assertEquals(List.of(), ChildJvmArchive.optionsFor(temp.resolve("missing.args"), temp));
    }
}
