package dev.panamaverbs.it.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class ChildJvmArchiveTest {
    @Test
    void oneArgFileGetsOneArchiveInTheTemporaryFolderWrittenAtExitWithItsMessagesOff() {
        List<String> options = ChildJvmArchive.optionsFor("/stage/peer.args");
        // The JVMs of these tests run with VERBS_JVM_CACHE unset (the option only measures).
        if (options.isEmpty()) {
            return;
        }
        assertEquals(options, ChildJvmArchive.optionsFor("/stage/peer.args"));
        String archive = options.getFirst().substring("-XX:SharedArchiveFile=".length());
        assertTrue(options.getFirst().startsWith("-XX:SharedArchiveFile="), options::toString);
        assertEquals(Path.of(System.getProperty("java.io.tmpdir")), Path.of(archive).getParent());
        assertTrue(options.contains("-XX:+AutoCreateSharedArchive"), options::toString);
        assertTrue(options.contains("-Xlog:cds*=off,aot*=off"), options::toString);
        assertNotEquals(options, ChildJvmArchive.optionsFor("/other-stage/peer.args"));
    }
}
