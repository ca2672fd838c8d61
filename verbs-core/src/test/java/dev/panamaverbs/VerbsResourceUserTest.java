package dev.panamaverbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * Dependents added after creation ({@link VerbsResource#addUser}), as a bound memory window is of
 * its region: closed before the resource they use, whatever their creation order.
 */
class VerbsResourceUserTest {
    /** What the test's fakes destroyed, in order (a fresh list per test). */
    private final List<String> destroyed = new ArrayList<>();

    @Test
    void anOlderUserIsClosedBeforeTheResourceItUses() {
        FakeResource pd = FakeResource.open("pd", destroyed);
        FakeResource window = FakeResource.open("window", destroyed, pd); // older than the region
        FakeResource region = FakeResource.open("region", destroyed, pd);
        region.addUser(window);
        window.usedResource = region;
        region.addUser(window); // idempotent
        pd.close();
        assertEquals(List.of("window", "region", "pd"), destroyed);
        assertTrue(window.isClosed() && region.isClosed() && pd.isClosed());
        assertTrue(pd.liveDependents().isEmpty());
    }

    @Test
    void closingTheUsedResourceClosesTheUserOnly() {
        FakeResource pd = FakeResource.open("pd", destroyed);
        FakeResource window = FakeResource.open("window", destroyed, pd);
        FakeResource region = FakeResource.open("region", destroyed, pd);
        region.addUser(window);
        window.usedResource = region;
        region.close();
        assertEquals(List.of("window", "region"), destroyed);
        assertFalse(pd.isClosed());
        assertTrue(pd.liveDependents().isEmpty());
    }

    /** A region and a window in no protection domain, fresh for each test. */
    @Nested
    class WithoutAParent {
        private final FakeResource region = FakeResource.open("region", destroyed);
        private final FakeResource window = FakeResource.open("window", destroyed);

        @Test
        void removedUserIsLeftOpen() {
            region.addUser(window);
            region.removeUser(window);
            region.removeUser(window); // does nothing
            region.close();
            assertEquals(List.of("region"), destroyed);
            assertFalse(window.isClosed());
        }

        @Test
        void closedResourceRefusesNewUsers() {
            region.close();
            assertThrows(IllegalStateException.class, () -> region.addUser(window));
            assertTrue(region.liveDependents().isEmpty());
        }

        @Test
        void closedUserLeavesTheResource() {
            region.addUser(window);
            window.usedResource = region;
            window.close();
            assertTrue(region.liveDependents().isEmpty());
        }
    }
}
