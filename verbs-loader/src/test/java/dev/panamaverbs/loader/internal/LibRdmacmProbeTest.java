package dev.panamaverbs.loader.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panamaverbs.ffm.invoke.rdma_cma_h;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Independent probes of fake librdmacm files: all required symbols or none, each cause named. */
class LibRdmacmProbeTest {

    @Test
    void aCompleteLibraryIsAvailableWithItsOptionalFunctions() {
        Path fake = FakeRdmacm.build("fakerdmacm-complete", Set.of());
        LoadResult result = LibraryProbe.probe(fake.toString(), rdma_cma_h.LIBRARY);
        assertTrue(result.isAvailable(), result::toString);
        assertTrue(result.has("rdma_create_id"));
        assertTrue(result.has("rdma_establish"), "RDMACM_1.2, optional, resolved when exported");
    }

    @Test
    void aMissingRequiredSymbolMakesItUnavailableAndNamesTheSymbol() {
        Path fake = FakeRdmacm.build("fakerdmacm-noconnect", Set.of("rdma_connect"));
        LoadResult result = LibraryProbe.probe(fake.toString(), rdma_cma_h.LIBRARY);
        assertFalse(result.isAvailable());
        String cause = result.unavailabilityCause().orElseThrow();
        assertTrue(cause.contains("lacks required symbol rdma_connect@RDMACM_1.0"), cause);
        assertTrue(result.resolvedSymbols().isEmpty(), "none or all: nothing resolved is kept");
    }

    @Test
    void aMissingOptionalSymbolIsReportedAsAbsentOnly() {
        Path fake = FakeRdmacm.build("fakerdmacm-noece", Set.of("rdma_reject_ece", "rdma_set_local_ece"));
        LoadResult result = LibraryProbe.probe(fake.toString(), rdma_cma_h.LIBRARY);
        assertTrue(result.isAvailable(), result::toString);
        assertFalse(result.has("rdma_reject_ece"));
        assertTrue(result.has("rdma_reject"));
    }

    @Test
    void aMissingLibraryIsUnavailableWithDlopensText() {
        LoadResult result = LibraryProbe.probe("/nonexistent/librdmacm.so.1", rdma_cma_h.LIBRARY);
        assertFalse(result.isAvailable());
        String cause = result.unavailabilityCause().orElseThrow();
        assertTrue(cause.startsWith("dlopen(\"/nonexistent/librdmacm.so.1\") failed"), cause);
    }

    @Test
    void theConfiguredLibraryDefaultsToTheSoname() {
        if (System.getProperty(LibRdmacm.LIBRARY_PROPERTY) == null && System.getenv(LibRdmacm.LIBRARY_ENVIRONMENT) == null) {
            assertEquals("librdmacm.so.1", LibRdmacm.configuredLibrary());
        }
    }
}
