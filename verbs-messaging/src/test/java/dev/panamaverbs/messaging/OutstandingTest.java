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
}
