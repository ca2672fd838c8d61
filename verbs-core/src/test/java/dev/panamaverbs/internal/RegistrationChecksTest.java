package dev.panamaverbs.internal;

import dev.panamaverbs.values.AccessFlag;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The argument checks of memory registration, which run before any native call (no device needed). */
class RegistrationChecksTest {
    private static final String VERB = "ibv_reg_mr";

    @Test
    void heapSegmentIsRejectedWithAHint() {
        MemorySegment heap = MemorySegment.ofArray(new byte[64]);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> RegistrationChecks.checkMemory(VERB, heap, EnumSet.of(AccessFlag.LOCAL_WRITE)));
        assertTrue(e.getMessage().startsWith("ibv_reg_mr: heap segments cannot be registered, use Arena.allocate"),
                e.getMessage());
    }

    @Test
    void emptySegmentIsRejected() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment empty = arena.allocate(64).asSlice(0, 0);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> RegistrationChecks.checkMemory(VERB, empty, Set.of()));
            assertTrue(e.getMessage().contains("length must be > 0"), e.getMessage());
        }
    }

    @Test
    void nullAddressIsRejected() {
        MemorySegment atNull = MemorySegment.NULL; // address 0 is checked before the length
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> RegistrationChecks.checkMemory(VERB, atNull, Set.of()));
        assertTrue(e.getMessage().contains("address 0"), e.getMessage());
    }

    @Test
    void segmentOfClosedArenaIsRejected() {
        Arena arena = Arena.ofConfined();
        MemorySegment memory = arena.allocate(4096);
        arena.close();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> RegistrationChecks.checkMemory(VERB, memory, Set.of()));
        assertTrue(e.getMessage().contains("arena is already closed"), e.getMessage());
    }

    @Test
    void readOnlySegmentMayBeRegisteredForReadingOnly() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment readOnly = arena.allocate(4096).asReadOnly();
            RegistrationChecks.checkMemory(VERB, readOnly, EnumSet.of(AccessFlag.REMOTE_READ));
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> RegistrationChecks.checkMemory(VERB, readOnly, EnumSet.of(AccessFlag.LOCAL_WRITE)));
            assertTrue(e.getMessage().contains("read-only segment") && e.getMessage().contains("LOCAL_WRITE"),
                    e.getMessage());
        }
    }

    @Test
    void nativeSegmentPasses() {
        try (Arena arena = Arena.ofConfined()) {
            RegistrationChecks.checkMemory(VERB, arena.allocate(4096),
                    EnumSet.of(AccessFlag.LOCAL_WRITE, AccessFlag.REMOTE_WRITE));
        }
    }

    @Test
    void nullArgumentsNameTheVerb() {
        NullPointerException memory = assertThrows(NullPointerException.class,
                () -> RegistrationChecks.checkMemory(VERB, null, Set.of()));
        assertTrue(memory.getMessage().startsWith("ibv_reg_mr"), memory.getMessage());
        NullPointerException access = assertThrows(NullPointerException.class,
                () -> RegistrationChecks.checkAccess(VERB, null));
        assertTrue(access.getMessage().startsWith("ibv_reg_mr"), access.getMessage());
    }

    @Test
    void remoteWriteNeedsLocalWrite() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> RegistrationChecks.checkAccess(VERB, EnumSet.of(AccessFlag.REMOTE_WRITE)));
        assertTrue(e.getMessage().startsWith("ibv_reg_mr: REMOTE_WRITE requires LOCAL_WRITE"), e.getMessage());
    }

    @Test
    void remoteAtomicNeedsLocalWrite() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> RegistrationChecks.checkAccess(VERB, EnumSet.of(AccessFlag.REMOTE_ATOMIC, AccessFlag.REMOTE_READ)));
        assertTrue(e.getMessage().contains("REMOTE_ATOMIC requires LOCAL_WRITE"), e.getMessage());
    }

    @Test
    void allowedCombinationsPassAndAreCopied() {
        Set<AccessFlag> asked = EnumSet.of(AccessFlag.LOCAL_WRITE, AccessFlag.REMOTE_WRITE, AccessFlag.REMOTE_ATOMIC,
                AccessFlag.REMOTE_READ);
        EnumSet<AccessFlag> checked = RegistrationChecks.checkAccess(VERB, asked);
        assertEquals(asked, checked);
        asked.clear();
        assertEquals(4, checked.size(), "the result must not share state with the caller's set");
        assertEquals(EnumSet.noneOf(AccessFlag.class), RegistrationChecks.checkAccess(VERB, Set.of()));
        assertEquals(EnumSet.of(AccessFlag.REMOTE_READ), RegistrationChecks.checkAccess(VERB, Set.of(AccessFlag.REMOTE_READ)));
    }

    @Test
    void dmabufArgumentsAreChecked() {
        String verb = "ibv_reg_dmabuf_mr";
        assertTrue(assertThrows(IllegalArgumentException.class, () -> RegistrationChecks.checkDmabuf(verb, -1, 4096, 3))
                .getMessage().contains("offset must be >= 0, got -1"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> RegistrationChecks.checkDmabuf(verb, 0, 0, 3))
                .getMessage().contains("length must be > 0, got 0"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> RegistrationChecks.checkDmabuf(verb, 0, 4096, -1))
                .getMessage().startsWith("ibv_reg_dmabuf_mr: fd must be"));
        RegistrationChecks.checkDmabuf(verb, 0, 4096, 0);
    }

    @Test
    void rangeInsideAcceptsExactlyTheRegion() {
        long start = 0x1000;
        long size = 0x100;
        assertTrue(RegistrationChecks.rangeInside(start, size, start, size));
        assertTrue(RegistrationChecks.rangeInside(start, size, start + 0x10, 0x20));
        assertTrue(RegistrationChecks.rangeInside(start, size, start + size, 0), "empty range at the end");
        assertFalse(RegistrationChecks.rangeInside(start, size, start - 1, 2), "starts before");
        assertFalse(RegistrationChecks.rangeInside(start, size, start + 1, size), "ends after");
        assertFalse(RegistrationChecks.rangeInside(start, size, start + size + 1, 0), "empty range past the end");
        assertFalse(RegistrationChecks.rangeInside(start, size, start, -1), "negative length");
        assertFalse(RegistrationChecks.rangeInside(start, size, start + 0x10, Long.MAX_VALUE), "overflowing length");
    }

    @Test
    void rangeInsideHandlesHighAddresses() {
        long start = 0xFFFF_FFFF_FFFF_F000L; // unsigned: near the top of the address space
        assertTrue(RegistrationChecks.rangeInside(start, 0x1000, start + 0x800, 0x800));
        assertFalse(RegistrationChecks.rangeInside(start, 0x1000, start + 0x800, 0x801));
        assertFalse(RegistrationChecks.rangeInside(start, 0x1000, 0, 1), "address 0 lies below, not after, the region");
    }
}
