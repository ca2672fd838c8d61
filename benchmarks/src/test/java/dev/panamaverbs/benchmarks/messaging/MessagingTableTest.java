package dev.panamaverbs.benchmarks.messaging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The shared table: per-message figures, the ratios to the verbs loop and TCP, the verdict against 1.10x. */
class MessagingTableTest {
    private static final PrintStream NOWHERE = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);

    @Test
    void ratiosAndVerdictsPerMessagingRow() {
        MessagingTable table = new MessagingTable();
        int size = MessagingCase.MEDIUM;
        table.add(new MessagingCase(size, MessagingCase.Mode.MESSAGING), oneWay(1000, 1_050_000, 2000, 0), 500, -1, "", NOWHERE);
        table.add(new MessagingCase(size, MessagingCase.Mode.COPY_OUT), oneWay(1000, 1_200_000, 0, 0), -1, -1, "", NOWHERE);
        table.add(new MessagingCase(size, MessagingCase.Mode.VERBS), oneWay(1000, 1_000_000, 0, 0), -1, -1, "", NOWHERE);
        table.add(new MessagingCase(size, MessagingCase.Mode.TCP), oneWay(1000, 3_000_000, 0, 0), -1, -1, "", NOWHERE);
        List<String> ratios = table.ratios();
        assertEquals(2, ratios.size(), ratios.toString());
        assertTrue(ratios.get(0).contains("messaging/verbs 1.05x (target at most 1.10x: met), messaging/tcp 0.35x"), ratios.get(0));
        assertTrue(ratios.get(1).contains("messaging/verbs 1.20x (target at most 1.10x: missed)"), ratios.get(1));
        MessagingTable.Row row = table.rows().get(0);
        assertEquals(2.0, row.endA());
        assertEquals(0.5, row.pollerA());
        assertTrue(Double.isNaN(row.pollerB()), "not measured");
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        table.print(new PrintStream(printed, true, StandardCharsets.UTF_8));
        assertTrue(printed.toString(StandardCharsets.UTF_8).contains("| 4 KiB one way | messaging | 1000 | 0.00 | 952381.0 | 3900.95 | - | - | - | 2.0 | 0.0 | 0.5 | - |"),
                printed.toString(StandardCharsets.UTF_8));
    }

    private static Exchange.Measured oneWay(long messages, long nanos, long allocatedA, long allocatedB) {
        return new Exchange.Measured(messages, nanos, new long[0], 0, allocatedA, allocatedB);
    }
}
