package dev.panamaverbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Dependents added after creation ({@link VerbsResource#addUser}), as a bound memory window is of
 * its region: closed before the resource they use, whatever their creation order.
 */
class VerbsResourceUserTest {

    private static final class Fake extends VerbsResource {
        final String name;
        final List<String> destroyed;
        /** The resource this one was added to as a user; it leaves it when destroyed. */
        VerbsResource usedResource;

        Fake(String name, List<String> destroyed, VerbsResource... dependencies) {
            super("Fake", MemorySegment.NULL, dependencies);
            this.name = name;
            this.destroyed = destroyed;
            register();
        }

        @Override
        void destroy() {
            destroyed.add(name);
            if (usedResource != null) {
                usedResource.removeUser(this);
            }
        }

        @Override
        String describe() {
            return name;
        }
    }

    @Test
    void anOlderUserIsClosedBeforeTheResourceItUses() {
        List<String> destroyed = new ArrayList<>();
        Fake pd = new Fake("pd", destroyed);
        Fake window = new Fake("window", destroyed, pd); // older than the region
        Fake region = new Fake("region", destroyed, pd);
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
        List<String> destroyed = new ArrayList<>();
        Fake pd = new Fake("pd", destroyed);
        Fake window = new Fake("window", destroyed, pd);
        Fake region = new Fake("region", destroyed, pd);
        region.addUser(window);
        window.usedResource = region;
        region.close();
        assertEquals(List.of("window", "region"), destroyed);
        assertFalse(pd.isClosed());
        assertTrue(pd.liveDependents().isEmpty());
    }

    @Test
    void removedUserIsLeftOpen() {
        List<String> destroyed = new ArrayList<>();
        Fake region = new Fake("region", destroyed);
        Fake window = new Fake("window", destroyed);
        region.addUser(window);
        region.removeUser(window);
        region.removeUser(window); // does nothing
        region.close();
        assertEquals(List.of("region"), destroyed);
        assertFalse(window.isClosed());
    }

    @Test
    void closedResourceRefusesNewUsers() {
        List<String> destroyed = new ArrayList<>();
        Fake region = new Fake("region", destroyed);
        Fake window = new Fake("window", destroyed);
        region.close();
        assertThrows(IllegalStateException.class, () -> region.addUser(window));
        assertTrue(region.liveDependents().isEmpty());
    }

    @Test
    void closedUserLeavesTheResource() {
        List<String> destroyed = new ArrayList<>();
        Fake region = new Fake("region", destroyed);
        Fake window = new Fake("window", destroyed);
        region.addUser(window);
        window.usedResource = region;
        window.close();
        assertTrue(region.liveDependents().isEmpty());
    }
}
