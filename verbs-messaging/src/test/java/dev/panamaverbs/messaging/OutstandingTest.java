package dev.panamaverbs.messaging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class OutstandingTest {
    @Test
    void idsCountFromOneAndAnEntryAddedBeforeAFailureIsHeld() {
        Outstanding<String> table = new Outstanding<>();
        assertEquals(1, table.nextId());
        assertEquals(2, table.nextId());
        assertNull(table.add(1, "one"));
        assertEquals("one", table.get(1));
        assertEquals(1, table.size());
        assertEquals("one", table.remove(1));
        assertEquals(0, table.size());
    }

    @Test
    void theFirstFailureReachesEveryEntryAndEveryLaterAdd() {
        Outstanding<String> table = new Outstanding<>();
        table.add(1, "one");
        table.add(2, "two");
        MessagingException first = new MessagingException("first", null);
        List<Long> failed = new ArrayList<>();
        table.failAll(first, (id, cause) -> {
            assertSame(first, cause);
            failed.add(id);
            table.remove(id);
        });
        assertEquals(2, failed.size());
        assertEquals(0, table.size());
        // A second failure does not replace the first, and an entry added afterwards sees it.
        table.failAll(new MessagingException("second", null), (id, cause) -> { });
        assertSame(first, table.failure());
        assertSame(first, table.add(3, "three"));
    }

    @Test
    void manyIdsGrowTheTableAndRemovalsKeepEveryOtherEntryFound() {
        Outstanding<String> table = new Outstanding<>();
        int count = 5_000;
        for (int i = 0; i < count; i++) {
            long id = table.nextId();
            assertNull(table.add(id, "v" + id));
        }
        for (long id = 1; id <= count; id += 3) {
            assertEquals("v" + id, table.remove(id));
        }
        assertEquals(count - (count + 2) / 3, table.size());
        for (long id = 1; id <= count; id++) {
            boolean removed = id % 3 == 1;
            assertEquals(!removed, table.contains(id), "id " + id);
            assertEquals(removed ? null : "v" + id, table.get(id), "id " + id);
        }
        assertEquals(false, table.remove(2, "other"), "a remove for another value leaves the entry");
        assertEquals(true, table.remove(2, "v2"));
        List<Long> failed = new ArrayList<>();
        table.failAll(new MessagingException("lost", null), (id, cause) -> {
            failed.add(id);
            table.remove(id);
        });
        assertEquals(count - (count + 2) / 3 - 1, failed.size());
        assertEquals(0, table.size());
    }
}
