package dev.panamaverbs.loader;

import dev.panamaverbs.error.VerbsUnsupportedException;
import dev.panamaverbs.ffm.VerbsConstants;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
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
        assertTrue(LibIbverbs.isAvailable());
        assertTrue(LibIbverbs.capabilities().isEmpty());
        fake = new FakeProvider(library);
        context = fake.context();
        pd = fake.pd(context);
    }

    @Test
    void plainRegistrationStillWorks() {
        assertTrue(InlineVerbs.regMr(pd, 0x1000, 64, VerbsConstants.IBV_ACCESS_LOCAL_WRITE) != 0);
        assertEquals("ibv_reg_mr", fake.lastOp());
    }

    @Test
    void optionalAccessFlagsAreUnsupported() {
        long calls = fake.calls();
        VerbsUnsupportedException thrown = assertThrows(VerbsUnsupportedException.class,
                () -> InlineVerbs.regMr(pd, 0x1000, 64, VerbsConstants.IBV_ACCESS_RELAXED_ORDERING));
        assertTrue(thrown.getMessage().contains("ibv_reg_mr_iova2@IBVERBS_1.8"), thrown.getMessage());
        assertThrows(VerbsUnsupportedException.class, () -> InlineVerbs.regMrIova(pd, 0x1000, 64, 0, 0));
        assertEquals(calls, fake.calls());
    }

    @Test
    void gidQueriesAreUnsupported() {
        assertThrows(VerbsUnsupportedException.class, () -> InlineVerbs.queryGidEx(context, 1, 0, 0x1000, 0));
        assertThrows(VerbsUnsupportedException.class, () -> InlineVerbs.queryGidTable(context, 0x1000, 1, 0));
    }
}
