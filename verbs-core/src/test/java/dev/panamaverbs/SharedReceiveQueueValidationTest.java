package dev.panamaverbs;

import dev.panamaverbs.values.SharedReceiveQueueOptions;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** The SRQ argument checks that run before ibv_create_srq. */
class SharedReceiveQueueValidationTest {

    @Test
    void optionsRejectNonsense() {
        assertThrows(IllegalArgumentException.class, () -> SharedReceiveQueueOptions.of(0, 1));
        assertThrows(IllegalArgumentException.class, () -> SharedReceiveQueueOptions.of(1, 0));
        IllegalArgumentException limit = assertThrows(IllegalArgumentException.class,
                () -> SharedReceiveQueueOptions.of(16, 1).withLimit(17));
        assertEquals("ibv_create_srq: srq_limit must be in 0..16 (max_wr), got 17", limit.getMessage());
        assertEquals(8, SharedReceiveQueueOptions.of(16, 1).withLimit(8).limit());
    }

    @Test
    void sizesAreCheckedAgainstTheDevice() {
        SharedReceiveQueue.checkLimits("ibv_create_srq", SharedReceiveQueueOptions.of(1024, 4), 1024, 4);
        IllegalArgumentException wr = assertThrows(IllegalArgumentException.class,
                () -> SharedReceiveQueue.checkLimits("ibv_create_srq", SharedReceiveQueueOptions.of(1025, 1), 1024, 4));
        assertEquals("ibv_create_srq: max_wr must be in 1..1024 (device max_srq_wr), got 1025", wr.getMessage());
        IllegalArgumentException sge = assertThrows(IllegalArgumentException.class,
                () -> SharedReceiveQueue.checkLimits("ibv_create_srq", SharedReceiveQueueOptions.of(8, 5), 1024, 4));
        assertEquals("ibv_create_srq: max_sge must be in 1..4 (device max_srq_sge), got 5", sge.getMessage());
    }
}
