package dev.panamaverbs.loader.internal;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panamaverbs.ffm.invoke.rdma_cma_h;
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
        RealLibraries.assertLoaded(LibRdmacm.LIBRARY, LibRdmacm.DEFAULT_LIBRARY, "librdmacm\\.so\\.1(\\.\\d+)*");
        assertTrue(rdma_cma_h.LIBRARY.isBound());
        // rdma-core 44 exports up to RDMACM_1.3.
        assertTrue(LibRdmacm.LIBRARY.has("rdma_establish"));
        assertTrue(LibRdmacm.LIBRARY.has("rdma_reject_ece"));
    }
}
