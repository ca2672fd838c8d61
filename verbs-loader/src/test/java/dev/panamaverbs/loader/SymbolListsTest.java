package dev.panamaverbs.loader;

import dev.panamaverbs.library.Capability;
import dev.panamaverbs.ffm.VerbsFunctions;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The required and optional lists agree with what verbs.h declares and libibverbs exports. */
class SymbolListsTest {

    @Test
    void requiredFunctionsAreExportedAtIbverbs10Or11() {
        for (String name : RequiredSymbols.NAMES) {
            SymbolSpec spec = ExportedFunctions.spec(name);
            assertTrue(Set.of("IBVERBS_1.0", "IBVERBS_1.1").contains(spec.version()),
                    name + " is pinned at " + spec.version() + ", newer than every rdma-core guarantees");
        }
        assertEquals(RequiredSymbols.NAMES.size(), new HashSet<>(RequiredSymbols.NAMES).size(), "duplicates");
    }

    @Test
    void optionalFunctionsAreExportedAndNewerThan11() {
        for (Capability capability : Capability.values()) {
            for (String name : capability.symbols()) {
                SymbolSpec spec = ExportedFunctions.spec(name);
                assertFalse(Set.of("IBVERBS_1.0", "IBVERBS_1.1").contains(spec.version()),
                        name + " is old enough to be required");
                assertFalse(RequiredSymbols.NAMES.contains(name), name + " is both required and optional");
            }
        }
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
        Set<String> looked = new HashSet<>(RequiredSymbols.NAMES);
        for (Capability capability : Capability.values()) {
            looked.addAll(capability.symbols());
        }
        for (String name : inline) {
            if (!ExportedFunctions.isExported(name)) {
                assertFalse(looked.contains(name), name + " is static inline and must never be resolved");
            }
        }
        LoadResult result = LibraryProbe.probe(FakeProvider.standardLibrary());
        for (String name : inline) {
            if (!ExportedFunctions.isExported(name)) {
                assertFalse(result.resolvedSymbols().contains(name), name + " was resolved");
            }
        }
    }
}
