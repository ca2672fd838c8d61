package dev.panamaverbs.loader.internal;

import dev.panamaverbs.ffm.ExportedFunction;
import dev.panamaverbs.ffm.VerbsFunctions;
import dev.panamaverbs.ffm.invoke.verbs_h;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the probe resolves is exactly what the generated layer lists: required by symbol version, never an inline verb. */
class SymbolListsTest {
    private static final Set<String> BASE_VERSIONS = Set.of("IBVERBS_1.0", "IBVERBS_1.1");

    @Test
    void requiredMeansExportedAtIbverbs10Or11() {
        for (ExportedFunction function : VerbsFunctions.EXPORTED) {
            assertEquals(BASE_VERSIONS.contains(function.version()), function.required(),
                    function.name() + "@" + function.version());
        }
        assertTrue(VerbsFunctions.EXPORTED.stream().filter(ExportedFunction::required).count() >= 40,
                "the base set covers devices, PDs, MRs, CQs, QPs, SRQs, AHs, events");
    }

    @Test
    void theProcessWideProbeResolvesTheGeneratedLibrary() {
        assertSame(VerbsFunctions.EXPORTED, verbs_h.LIBRARY.functions());
    }

    @Test
    void staticInlineVerbsAreNeverLookedUp() {
        Set<String> inline = new HashSet<>();
        for (var function : VerbsFunctions.INLINE) {
            inline.add(function.name());
        }
        for (String verb : List.of("ibv_post_send", "ibv_post_recv", "ibv_post_srq_recv", "ibv_poll_cq",
                "ibv_req_notify_cq", "ibv_create_cq_ex", "ibv_create_qp_ex", "ibv_query_device_ex",
                "ibv_alloc_mw", "ibv_wr_send", "ibv_start_poll")) {
            assertTrue(inline.contains(verb), verb + " should be listed as inline");
        }
        Set<String> exported = new HashSet<>();
        VerbsFunctions.EXPORTED.forEach(f -> exported.add(f.name()));
        LoadResult result = LibraryProbe.probe(FakeProvider.standardLibrary());
        for (String name : inline) {
            if (!exported.contains(name)) {
                assertFalse(result.resolvedSymbols().contains(name), name + " is static inline and was resolved");
            }
        }
    }
}
