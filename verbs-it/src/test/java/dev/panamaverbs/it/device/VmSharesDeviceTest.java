package dev.panamaverbs.it.device;

import dev.panamaverbs.testkit.DeviceTest;
import dev.panamaverbs.testkit.TestDevice;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Issue 14, item 6: inside the project's VM (the guest runs as root) the host's root is shared
 * read-only, and only the project tree (with the run folder, the JDK and the Maven repository:
 * README "The two commands") is writable. A write anywhere else on the host fails with EROFS, so
 * a guest mistake cannot reach the host outside the project. Runs only inside that VM.
 */
class VmSharesDeviceTest {
    @DeviceTest
    void theGuestCannotWriteTheHostOutsideTheProject(TestDevice device) throws IOException {
        assumeTrue("1".equals(System.getenv("VERBS_IN_VM")), "not inside the project's VM");
        for (Path outside : List.of(Path.of("/usr/local"), Path.of("/etc"), Path.of("/var"), Path.of("/root"))) {
            if (!Files.isDirectory(outside)) {
                continue;
            }
            try {
                Path written = Files.createTempFile(outside, "panamaverbs-guest-", ".probe");
                Files.deleteIfExists(written);
                fail("the guest wrote " + written + " on the host, outside the project's shares");
            } catch (IOException expected) {
                assertTrue(String.valueOf(expected.getMessage()).contains("Read-only file system"),
                        "writing under " + outside + " failed, but not because the share is read-only: " + expected);
            }
        }
        Path project = Path.of(System.getProperty("user.dir"));
        Path probe = Files.createTempFile(project, "panamaverbs-guest-", ".probe");
        try {
            assertTrue(Files.exists(probe), "the project tree " + project + " is writable from the guest");
        } finally {
            Files.delete(probe);
        }
        assertFalse(Files.exists(probe));
    }
}
