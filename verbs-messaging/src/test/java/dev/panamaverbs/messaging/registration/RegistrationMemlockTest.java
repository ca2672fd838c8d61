package dev.panamaverbs.messaging.registration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Reading RLIMIT_MEMLOCK from {@code /proc/self/limits} text, and the budgets derived from it. */
class RegistrationMemlockTest {
    private static final String HEAD = "Limit                     Soft Limit           Hard Limit           Units     \n"
            + "Max cpu time              unlimited            unlimited            seconds   \n"
            + "Max processes             127451               127451               processes \n";
    private static final String TAIL = "Max address space         unlimited            unlimited            bytes     \n";

    @Test
    void readsTheSoftLimitInBytes() {
        String text = HEAD + "Max locked memory         65536                8388608              bytes     \n" + TAIL;
        assertEquals(65536, RegistrationMemlock.parse(text));
    }

    @Test
    void readsUnlimited() {
        String text = HEAD + "Max locked memory         unlimited            unlimited            bytes     \n" + TAIL;
        assertEquals(RegistrationMemlock.UNLIMITED, RegistrationMemlock.parse(text));
    }

    @Test
    void aMissingOrGarbledLineIsUnknown() {
        assertEquals(RegistrationMemlock.UNKNOWN, RegistrationMemlock.parse(HEAD + TAIL));
        assertEquals(RegistrationMemlock.UNKNOWN, RegistrationMemlock.parse(""));
        assertEquals(RegistrationMemlock.UNKNOWN, RegistrationMemlock.parse("Max locked memory         lots   x  bytes\n"));
        assertEquals(RegistrationMemlock.UNKNOWN, RegistrationMemlock.parse("Max locked memory\n"));
    }

    @Test
    void readsThisProcess() {
        long limit = RegistrationMemlock.read();
        // Linux has /proc/self/limits: a number or unlimited, never unknown.
        assertTrue(limit == RegistrationMemlock.UNLIMITED || limit >= 0, "limit " + limit);
    }

    @Test
    void theDefaultBudgetIsHalfTheLimitAndNoneWhenUnlimited() {
        assertEquals(4 << 20, RegistrationBudget.defaultBudget().resolve(8 << 20));
        assertEquals(Long.MAX_VALUE, RegistrationBudget.defaultBudget().resolve(RegistrationMemlock.UNLIMITED));
        assertEquals(Long.MAX_VALUE, RegistrationBudget.defaultBudget().resolve(RegistrationMemlock.UNKNOWN));
    }

    @Test
    void configuredBudgets() {
        assertEquals(12345, RegistrationBudget.ofBytes(12345).resolve(8 << 20));
        assertEquals(12345, RegistrationBudget.ofBytes(12345).resolve(RegistrationMemlock.UNLIMITED));
        assertEquals(Long.MAX_VALUE, RegistrationBudget.unlimited().resolve(65536));
        assertEquals(6 << 20, RegistrationBudget.shareOfMemlock(0.75, 1 << 30).resolve(8 << 20));
        assertEquals(1 << 30, RegistrationBudget.shareOfMemlock(0.75, 1 << 30).resolve(RegistrationMemlock.UNLIMITED));
        assertThrows(IllegalArgumentException.class, () -> RegistrationBudget.shareOfMemlock(0, 1));
        assertThrows(IllegalArgumentException.class, () -> RegistrationBudget.shareOfMemlock(1.5, 1));
        assertThrows(IllegalArgumentException.class, () -> RegistrationBudget.shareOfMemlock(Double.NaN, 1));
        assertThrows(IllegalArgumentException.class, () -> RegistrationBudget.ofBytes(0));
    }
}
