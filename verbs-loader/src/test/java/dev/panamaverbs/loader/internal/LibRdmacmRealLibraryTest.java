package dev.panamaverbs.loader.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.panamaverbs.ffm.invoke.rdma_cma_h;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The process-wide librdmacm with no override: the host's real one, when installed. Own JVM. */
class LibRdmacmRealLibraryTest {

    @BeforeAll
    static void hostHasLibrdmacm() {
        assumeTrue(System.getProperty(LibRdmacm.LIBRARY_PROPERTY) == null
                && System.getenv(LibRdmacm.LIBRARY_ENVIRONMENT) == null, "an override is configured");
        boolean installed = Stream.of("/usr/lib/x86_64-linux-gnu", "/usr/lib64", "/usr/lib", "/lib/x86_64-linux-gnu")
                .anyMatch(dir -> Files.exists(Path.of(dir, "librdmacm.so.1")));
        assumeTrue(installed, "librdmacm.so.1 is not installed on this host");
    }

    @Test
    void theRealLibraryIsAvailableAndBound() {
        assertTrue(LibRdmacm.LIBRARY.isAvailable(), () -> LibRdmacm.LIBRARY.unavailabilityCause().orElse(""));
        assertEquals(LibRdmacm.DEFAULT_LIBRARY, LibRdmacm.LIBRARY.requestedLibrary());
        String loaded = LibRdmacm.LIBRARY.libraryPath();
        assertTrue(Path.of(loaded).getFileName().toString().matches("librdmacm\\.so\\.1(\\.\\d+)*"), loaded);
        assertTrue(rdma_cma_h.LIBRARY.isBound());
        // rdma-core 44 exports up to RDMACM_1.3.
        assertTrue(LibRdmacm.LIBRARY.has("rdma_establish"));
        assertTrue(LibRdmacm.LIBRARY.has("rdma_reject_ece"));
    }
}
