package dev.panamaverbs.it.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;

/** How {@link DataPathAllocationDeviceTest} judges a child's report (no device needed): a byte fails it. */
class DataPathAllocationVerdictTest {
    private static String report(long baseline, long... loopBytes) {
        StringBuilder out = new StringBuilder(DataPathAllocation.BASELINE + baseline + " 3000\n");
        for (int i = 0; i < loopBytes.length; i++) {
            out.append(DataPathAllocation.LOOP).append("loop ").append(i).append('|').append(loopBytes[i])
                    .append("|3000|1234\n");
        }
        return out.toString();
    }

    private static long[] zeros() {
        return new long[DataPathLoops.LOOP_COUNT];
    }

    @Test
    void everyLoopAtZeroPasses() {
        assertEquals(List.of(), DataPathAllocationDeviceTest.failures(report(0, zeros())));
    }

    @Test
    void oneByteInOneLoopFailsNamingIt() {
        long[] bytes = zeros();
        bytes[3] = 16;
        List<String> failures = DataPathAllocationDeviceTest.failures(report(0, bytes));
        assertEquals(1, failures.size());
        assertTrue(failures.get(0).startsWith("loop 3: 16 B over 3000 operations"), failures.get(0));
    }

    @Test
    void theJitModeAllowsLessThanOneBytePerOperationOnly() {
        long[] bytes = zeros();
        bytes[2] = 2_999; // the JVM's one-off compile work: under 1 B per operation over 3000
        assertEquals(List.of(), DataPathAllocationDeviceTest.failures(report(0, bytes), true));
        assertEquals(1, DataPathAllocationDeviceTest.failures(report(0, bytes), false).size());
        bytes[2] = 3_000 * 16; // one 16-byte object per operation
        List<String> failures = DataPathAllocationDeviceTest.failures(report(0, bytes), true);
        assertEquals(1, failures.size());
        assertTrue(failures.get(0).startsWith("loop 2: 48000 B over 3000 operations"), failures.get(0));
    }

    @Test
    void aMeterThatAllocatesOrAMissingLoopFails() {
        assertThrows(AssertionFailedError.class, () -> DataPathAllocationDeviceTest.failures(report(24, zeros())));
        assertThrows(AssertionFailedError.class,
                () -> DataPathAllocationDeviceTest.failures(report(0, new long[DataPathLoops.LOOP_COUNT - 1])));
        assertThrows(AssertionFailedError.class,
                () -> DataPathAllocationDeviceTest.failures(report(0, zeros()).replace(DataPathAllocation.BASELINE, "")));
    }
}
