package dev.panamaverbs.loader.internal;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panamaverbs.ffm.invoke.CallState;
import dev.panamaverbs.ffm.invoke.rdma_cma_h;
import java.lang.foreign.Arena;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code -Dpanamaverbs.rdmacm.library=} a librdmacm lacking a required symbol: rdma_cm is
 * unavailable with that cause, its invokers stay unbound, and libibverbs is not affected. Own JVM.
 */
class LibRdmacmMissingTest {

    @BeforeAll
    static void pointAtABrokenLibrary() {
        System.setProperty(LibRdmacm.LIBRARY_PROPERTY,
                FakeRdmacm.build("fakerdmacm-broken", Set.of("rdma_get_cm_event")).toString());
    }

    @Test
    void rdmacmIsUnavailableWithTheMissingSymbolNamed() {
        assertFalse(LibRdmacm.LIBRARY.isAvailable());
        String cause = LibRdmacm.LIBRARY.unavailabilityCause().orElseThrow();
        assertTrue(cause.contains("rdma_get_cm_event@RDMACM_1.0"), cause);
        assertFalse(rdma_cma_h.LIBRARY.isBound());
        try (Arena arena = Arena.ofConfined()) {
            IllegalStateException unbound = assertThrows(IllegalStateException.class,
                    () -> rdma_cma_h.rdma_create_event_channel(CallState.allocate(arena)));
            assertTrue(unbound.getMessage().contains("librdmacm.so.1"), unbound.getMessage());
        }
    }

    @Test
    void verbsDoNotDependOnRdmacm() {
        // The real libibverbs, where installed, loads whatever librdmacm's fate.
        if (java.nio.file.Files.exists(java.nio.file.Path.of("/usr/lib/x86_64-linux-gnu/libibverbs.so.1"))
                && System.getProperty(LibraryProbe.LIBRARY_PROPERTY) == null) {
            assertTrue(LibIbverbs.LIBRARY.isAvailable(), () -> LibIbverbs.LIBRARY.unavailabilityCause().orElse(""));
        }
        assertFalse(LibRdmacm.LIBRARY.isAvailable());
    }
}
