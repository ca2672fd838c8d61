package dev.panamaverbs.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The copy-on-write address table a completion channel maps its events' CQ addresses with. */
class AddressTableTest {

    @Test
    void agreesWithAMapOverRandomPutsAndRemovesIncludingTheHighHalfOfTheAddressSpace() {
        AddressTable<String> table = new AddressTable<>();
        Map<Long, String> expected = new HashMap<>();
        Random random = new Random(42);
        for (int step = 0; step < 5_000; step++) {
            // Few distinct addresses, so puts replace and removes hit; negative longs are kernel-half addresses.
            long address = (random.nextInt(64) - 32) * 0x40L;
            String value = "v" + step;
            if (random.nextBoolean()) {
                table.put(address, value);
                expected.put(address, value);
            } else {
                String current = expected.get(address);
                table.remove(address, current);
                expected.remove(address);
            }
            assertEquals(expected.size(), table.size());
        }
        for (long address = -32 * 0x40L; address < 32 * 0x40L; address += 0x20) {
            assertEquals(expected.get(address), table.get(address), "at " + address);
        }
    }

    @Test
    void removeLeavesAnEntryThatAnotherValueReplaced() {
        AddressTable<Object> table = new AddressTable<>();
        Object first = new Object();
        Object second = new Object();
        table.put(0x1000, first);
        table.put(0x1000, second); // the address reused by a new CQ before the old one was removed
        table.remove(0x1000, first);
        assertSame(second, table.get(0x1000));
        table.remove(0x1000, second);
        assertNull(table.get(0x1000));
        assertEquals(0, table.size());
    }
}
