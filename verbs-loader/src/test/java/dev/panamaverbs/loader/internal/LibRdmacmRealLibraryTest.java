package dev.panamaverbs.loader.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panamaverbs.ffm.invoke.rdma_cma_h;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The process-wide librdmacm with no override: the host's real one, when installed. Own JVM. */
class LibRdmacmRealLibraryTest {

    @BeforeAll
    static void hostHasLibrdmacm() {
        RealLibraries.assumeInstalledWithoutOverride(LibRdmacm.LIBRARY_PROPERTY, LibRdmacm.LIBRARY_ENVIRONMENT, "librdmacm.so.1");
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
