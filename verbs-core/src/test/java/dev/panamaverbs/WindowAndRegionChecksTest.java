package dev.panamaverbs;

import dev.panamaverbs.internal.RegistrationChecks;
import dev.panamaverbs.values.AccessFlag;
import dev.panamaverbs.values.MemoryWindowType;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The checks of {@code RegionRegistration.allocate} (region size) and {@code MemoryWindow.bind}
 * (window type, access, range, protection domains), on plain values: no device needed.
 */
class WindowAndRegionChecksTest {
    private static final String REG = "ibv_reg_mr";
    private static final String BIND = "ibv_bind_mw";
    private static final Set<AccessFlag> REGION = EnumSet.of(AccessFlag.LOCAL_WRITE, AccessFlag.MW_BIND);
    private static final Set<AccessFlag> READ = EnumSet.of(AccessFlag.REMOTE_READ);

    // ---- region size ----

    @Test
    void regionSizeMustBePositiveWithoutAskingTheDevice() {
        AtomicInteger queries = new AtomicInteger();
        for (long size : new long[] {0, -1, Long.MIN_VALUE}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> RegistrationChecks.checkRegionSize(REG, size, () -> {
                        queries.incrementAndGet();
                        return -1L;
                    }));
            assertEquals("ibv_reg_mr: length must be > 0, got " + size, e.getMessage());
        }
        assertEquals(0, queries.get(), "a bad size is refused before max_mr_size is queried");
    }

    @Test
    void regionSizeAboveMaxMrSizeIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> RegistrationChecks.checkRegionSize(REG, 4097, () -> 4096L));
        assertTrue(e.getMessage().startsWith("ibv_reg_mr: length 4097 exceeds the device's max_mr_size of 4096"),
                e.getMessage());
        RegistrationChecks.checkRegionSize(REG, 4096, () -> 4096L);
    }

    @Test
    void maxMrSizeIsUnsigned() {
        RegistrationChecks.checkRegionSize(REG, Long.MAX_VALUE, () -> -1L); // 2^64-1: no limit
        RegistrationChecks.checkRegionSize(REG, Long.MAX_VALUE, () -> 0x8000_0000_0000_0000L);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> RegistrationChecks.checkRegionSize(REG, 1L << 40, () -> 1L << 39));
        assertTrue(e.getMessage().contains("max_mr_size of " + (1L << 39)), e.getMessage());
    }

    // ---- ibv_bind_mw ----

    private static void bind(MemoryWindowType type, Set<AccessFlag> window, Set<AccessFlag> region, long regionLength,
            long offset, long length) {
        RegistrationChecks.checkBind(BIND, "window", type, window, "region", region, regionLength, offset, length);
    }

    private static String refused(MemoryWindowType type, Set<AccessFlag> window, Set<AccessFlag> region,
            long regionLength, long offset, long length) {
        String message = assertThrows(IllegalArgumentException.class,
                () -> bind(type, window, region, regionLength, offset, length)).getMessage();
        assertTrue(message.startsWith("ibv_bind_mw: "), message);
        return message;
    }

    @Test
    void validBindsPass() {
        bind(MemoryWindowType.TYPE_1, READ, REGION, 4096, 0, 4096);
        bind(MemoryWindowType.TYPE_1, READ, REGION, 4096, 1024, 2048);
        bind(MemoryWindowType.TYPE_1, READ, REGION, 4096, 4095, 1);
        bind(MemoryWindowType.TYPE_1, EnumSet.of(AccessFlag.REMOTE_READ, AccessFlag.REMOTE_WRITE,
                AccessFlag.REMOTE_ATOMIC, AccessFlag.ZERO_BASED), REGION, 4096, 0, 64);
        bind(MemoryWindowType.TYPE_1, Set.of(), REGION, 4096, 0, 64);
    }

    @Test
    void rangeMustLieInsideTheRegion() {
        assertTrue(refused(MemoryWindowType.TYPE_1, READ, REGION, 4096, 3072, 2048)
                .contains("range offset=3072, length=2048 is not inside region"));
        refused(MemoryWindowType.TYPE_1, READ, REGION, 4096, -1, 64);
        refused(MemoryWindowType.TYPE_1, READ, REGION, 4096, 0, 0);
        refused(MemoryWindowType.TYPE_1, READ, REGION, 4096, 0, -64);
        refused(MemoryWindowType.TYPE_1, READ, REGION, 4096, 4096, 1);
        refused(MemoryWindowType.TYPE_1, READ, REGION, 4096, 0, 4097);
        refused(MemoryWindowType.TYPE_1, READ, REGION, 4096, 1, Long.MAX_VALUE);
        refused(MemoryWindowType.TYPE_1, READ, REGION, 4096, Long.MAX_VALUE, 1);
    }

    @Test
    void regionNeedsMwBind() {
        assertTrue(refused(MemoryWindowType.TYPE_1, READ, EnumSet.of(AccessFlag.LOCAL_WRITE, AccessFlag.REMOTE_READ),
                4096, 0, 64).contains("region was not registered with MW_BIND"));
    }

    @Test
    void remoteWriteOrAtomicThroughAWindowNeedsLocalWriteOnTheRegion() {
        Set<AccessFlag> readOnlyRegion = EnumSet.of(AccessFlag.MW_BIND, AccessFlag.REMOTE_READ);
        bind(MemoryWindowType.TYPE_1, READ, readOnlyRegion, 4096, 0, 64);
        for (AccessFlag flag : new AccessFlag[] {AccessFlag.REMOTE_WRITE, AccessFlag.REMOTE_ATOMIC}) {
            assertTrue(refused(MemoryWindowType.TYPE_1, EnumSet.of(flag), readOnlyRegion, 4096, 0, 64)
                    .contains("needs a region registered with LOCAL_WRITE"));
        }
    }

    @Test
    void windowsGrantOnlyRemoteRights() {
        for (AccessFlag flag : EnumSet.complementOf(EnumSet.copyOf(RegistrationChecks.BINDABLE_ACCESS))) {
            assertTrue(refused(MemoryWindowType.TYPE_1, EnumSet.of(flag), REGION, 4096, 0, 64)
                    .contains("a window cannot grant " + flag));
        }
    }

    @Test
    void onlyType1WindowsAreBoundWithBindMw() {
        String message = refused(MemoryWindowType.TYPE_2, READ, REGION, 4096, 0, 64);
        assertTrue(message.contains("only type 1 windows are bound with ibv_bind_mw"), message);
        assertTrue(message.contains("SendWorkRequest.bindMemoryWindow"), message);
    }

    @Test
    void type2BindsShareTheRangeAndAccessChecks() {
        String verb = "ibv_post_send BIND_MW";
        RegistrationChecks.checkBindRange(verb, READ, "region", REGION, 4096, 1024, 2048);
        for (Runnable bad : new Runnable[] {
                () -> RegistrationChecks.checkBindRange(verb, READ, "region", REGION, 4096, 3072, 2048),
                () -> RegistrationChecks.checkBindRange(verb, READ, "region", REGION, 4096, 0, 0),
                () -> RegistrationChecks.checkBindRange(verb, READ, "region", EnumSet.of(AccessFlag.LOCAL_WRITE), 4096, 0, 64),
                () -> RegistrationChecks.checkBindRange(verb, EnumSet.of(AccessFlag.LOCAL_WRITE), "region", REGION, 4096, 0, 64),
                () -> RegistrationChecks.checkBindRange(verb, EnumSet.of(AccessFlag.REMOTE_WRITE), "region",
                        EnumSet.of(AccessFlag.MW_BIND), 4096, 0, 64)}) {
            String message = assertThrows(IllegalArgumentException.class, bad::run).getMessage();
            assertTrue(message.startsWith(verb + ": "), message);
        }
    }

    @Test
    void resourcesOfAnotherProtectionDomainAreRefused() {
        Object domain = "pd1";
        RegistrationChecks.checkSameDomain(BIND, "window", domain, "qp", domain);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> RegistrationChecks.checkSameDomain(BIND, "window", domain, "qp", "pd2"));
        assertEquals("ibv_bind_mw: qp belongs to pd2, not to pd1 of window", e.getMessage());
        // Identity, not equality: two domains are never the same object by value.
        assertThrows(IllegalArgumentException.class,
                () -> RegistrationChecks.checkSameDomain(BIND, "window", new String("pd1"), "region", "pd1"));
    }
}
