package dev.panamaverbs.gateway;

import dev.panamaverbs.loader.internal.*;
import dev.panamaverbs.ffm.invoke.CallState;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import dev.panamaverbs.ffm.VerbsConstants;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A libibverbs without the optional functions (own JVM): the verbs needing them are unsupported. */
class InlineVerbsWithoutOptionalTest {
    private static FakeProvider fake;
    private static long context;
    private static long pd;

    @BeforeAll
    static void useAnOldFakeLibrary() {
        var library = FakeLibrary.named("fakeverbs-old").omitAllOptional().build();
        System.setProperty(LibraryProbe.LIBRARY_PROPERTY, library.toString());
        assertTrue(LibIbverbs.LIBRARY.isAvailable());
        assertFalse(LibIbverbs.LIBRARY.has("ibv_reg_mr_iova2"));
        fake = new FakeProvider(library);
        context = fake.context();
        pd = fake.pd(context);
    }

    @Test
    void plainRegistrationStillWorks() {
        try (Arena arena = Arena.ofConfined()) {
            assertTrue(InlineVerbs.regMr(CallState.allocate(arena), pd, 0x1000, 64,
                    VerbsConstants.IBV_ACCESS_LOCAL_WRITE) != 0);
        }
        assertEquals("ibv_reg_mr", fake.lastOp());
    }

    @Test
    void optionalAccessFlagsAreUnsupported() {
        long calls = fake.calls();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = CallState.allocate(arena);
            assertEquals(0, InlineVerbs.regMr(state, pd, 0x1000, 64, VerbsConstants.IBV_ACCESS_RELAXED_ORDERING));
            assertEquals(OpsTable.EOPNOTSUPP, CallState.errno(state), "the header's answer: errno EOPNOTSUPP");
            assertEquals(0, InlineVerbs.regMrIova(state, pd, 0x1000, 64, 0, 0));
            assertEquals(OpsTable.EOPNOTSUPP, CallState.errno(state));
        }
        assertEquals(calls, fake.calls(), "nothing reached the library");
    }

    @Test
    void gidQueriesAreUnsupported() {
        assertEquals(OpsTable.EOPNOTSUPP, InlineVerbs.queryGidEx(context, 1, 0, 0x100000, 0));
        assertEquals(-OpsTable.EOPNOTSUPP, InlineVerbs.queryGidTable(context, 0x100000, 1, 0));
    }
}
