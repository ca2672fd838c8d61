package dev.panamaverbs.cm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.panamaverbs.Verbs;
import dev.panamaverbs.VerbsException;
import dev.panamaverbs.VerbsSetupException;
import dev.panamaverbs.loader.internal.LibRdmacm;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The rdma_cm probe opens the device {@code rdma_create_event_channel} needs: with its path made
 * absent ({@value RdmaCmDevice#PATH_PROPERTY}) rdma_cm is unavailable with a cause naming the
 * {@code rdma_ucm} module, and connect and listen throw the setup exception before any native call.
 */
class RdmaCmDeviceProbeTest {
    @TempDir
    Path directory;

    @AfterEach
    void restoreThePath() {
        System.clearProperty(RdmaCmDevice.PATH_PROPERTY);
    }

    private static void assumeLibrariesLoad() {
        assumeTrue(Verbs.isAvailable() && LibRdmacm.LIBRARY.isAvailable(),
                () -> "libibverbs or librdmacm unavailable here: " + RdmaCm.unavailabilityCause().orElse(""));
    }

    @Test
    void theDefaultPathIsTheOneLibrdmacmOpens() {
        assertEquals(Path.of("/dev/infiniband/rdma_cm"), RdmaCmDevice.path());
        System.setProperty(RdmaCmDevice.PATH_PROPERTY, " ");
        assertEquals(Path.of("/dev/infiniband/rdma_cm"), RdmaCmDevice.path(), "a blank property is ignored");
    }

    @Test
    void aMissingDeviceNamesTheKernelModule() {
        Path absent = directory.resolve("rdma_cm");
        System.setProperty(RdmaCmDevice.PATH_PROPERTY, absent.toString());
        String problem = RdmaCmDevice.problem().orElseThrow();
        assertTrue(problem.startsWith(absent + " is missing") && problem.contains("modprobe rdma_ucm"), problem);
    }

    @Test
    void aDeviceThatOpensIsNoProblem() throws IOException {
        Path present = Files.createFile(directory.resolve("rdma_cm"));
        System.setProperty(RdmaCmDevice.PATH_PROPERTY, present.toString());
        assertTrue(RdmaCmDevice.problem().isEmpty());
    }

    @Test
    void withTheDeviceAbsentRdmaCmIsUnavailableWithTheCause() {
        assumeLibrariesLoad();
        System.setProperty(RdmaCmDevice.PATH_PROPERTY, directory.resolve("rdma_cm").toString());
        assertFalse(RdmaCm.isAvailable());
        String cause = RdmaCm.unavailabilityCause().orElseThrow();
        assertTrue(cause.contains("rdma_ucm"), cause);
        VerbsException offered = RdmaCm.unavailabilityException().orElseThrow();
        assertInstanceOf(VerbsSetupException.class, offered);
        assertTrue(offered.getMessage().endsWith(cause), offered.getMessage());
        VerbsSetupException thrown = assertThrows(VerbsSetupException.class, RdmaCm::ensureAvailable);
        assertEquals(offered.getMessage(), thrown.getMessage());
        assertTrue(Verbs.isAvailable(), "verbs itself does not need rdma_cm");
    }

    @Test
    void connectAndListenThrowTheSetupExceptionWhenTheDeviceIsAbsent() {
        assumeLibrariesLoad();
        System.setProperty(RdmaCmDevice.PATH_PROPERTY, directory.resolve("rdma_cm").toString());
        InetSocketAddress loopback = new InetSocketAddress(InetAddress.getLoopbackAddress(), 18515);
        VerbsSetupException connect = assertThrows(VerbsSetupException.class,
                () -> RdmaConnection.connect(loopback, ConnectionOptions.defaults()));
        assertTrue(connect.getMessage().contains("rdma_ucm"), connect.getMessage());
        VerbsSetupException listen = assertThrows(VerbsSetupException.class,
                () -> RdmaListener.listen(loopback, ConnectionOptions.defaults()));
        assertTrue(listen.getMessage().contains("rdma_ucm"), listen.getMessage());
        assertThrows(VerbsSetupException.class, ConnectionEventChannel::create);
    }

    @Test
    void withTheDevicePresentTheLibrariesDecide() throws IOException {
        assumeLibrariesLoad();
        Path present = Files.createFile(directory.resolve("rdma_cm"));
        System.setProperty(RdmaCmDevice.PATH_PROPERTY, present.toString());
        assertTrue(RdmaCm.isAvailable(), () -> RdmaCm.unavailabilityCause().orElse(""));
        assertTrue(RdmaCm.unavailabilityException().isEmpty());
        RdmaCm.ensureAvailable();
    }
}
