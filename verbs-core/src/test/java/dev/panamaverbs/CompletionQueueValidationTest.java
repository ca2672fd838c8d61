package dev.panamaverbs;

import dev.panamaverbs.internal.UnackedEvents;
import dev.panamaverbs.values.CompletionField;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panamaverbs.ffm.VerbsConstants;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The CQ argument checks that run before ibv_create_cq / ibv_create_cq_ex / ibv_resize_cq. */
class CompletionQueueValidationTest {
    private static final int MAX_CQE = 4194303; // what rxe reports

    @Test
    void cqeMustBeWithinDeviceMax() {
        IllegalArgumentException zero = assertThrows(IllegalArgumentException.class,
                () -> CompletionQueue.checkCqe("ibv_create_cq", 0, MAX_CQE));
        assertEquals("ibv_create_cq: cqe must be in 1..4194303 (device max_cqe), got 0", zero.getMessage());
        assertThrows(IllegalArgumentException.class, () -> CompletionQueue.checkCqe("ibv_create_cq", MAX_CQE + 1, MAX_CQE));
        assertThrows(IllegalArgumentException.class, () -> CompletionQueue.checkCqe("ibv_create_cq", -5, MAX_CQE));
        CompletionQueue.checkCqe("ibv_create_cq", 1, MAX_CQE);
        CompletionQueue.checkCqe("ibv_create_cq", MAX_CQE, MAX_CQE);
        IllegalArgumentException resize = assertThrows(IllegalArgumentException.class,
                () -> CompletionQueue.checkCqe("ibv_resize_cq", 20, 16));
        assertTrue(resize.getMessage().startsWith("ibv_resize_cq: "), resize.getMessage());
    }

    @Test
    void completionVectorMustBeBelowTheContextsCount() {
        CompletionQueue.checkCompletionVector("ibv_create_cq", 0, 1);
        CompletionQueue.checkCompletionVector("ibv_create_cq", 3, 4);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> CompletionQueue.checkCompletionVector("ibv_create_cq", 1, 1));
        assertEquals("ibv_create_cq: comp_vector must be in 0..0 (context num_comp_vectors 1), got 1", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> CompletionQueue.checkCompletionVector("ibv_create_cq", -1, 4));
    }

    @Test
    void extendedOptionsTranslateToTheCStruct() {
        CompletionQueueOptions options = CompletionQueueOptions.of(64);
        assertEquals(64, options.cqe());
        assertNull(options.channel());
        assertEquals(VerbsConstants.IBV_WC_STANDARD_FLAGS, options.wcFlags());
        assertEquals(0, options.createFlags());
        assertEquals(UnackedEvents.DEFAULT_BATCH, options.eventAckBatch());

        CompletionQueueOptions tuned = options
                .withFields(EnumSet.of(CompletionField.BYTE_LEN, CompletionField.COMPLETION_TIMESTAMP))
                .withSingleThreaded(true)
                .withIgnoreOverrun(true)
                .withCompletionVector(2)
                .withEventAckBatch(4);
        assertEquals(VerbsConstants.IBV_WC_EX_WITH_BYTE_LEN | VerbsConstants.IBV_WC_EX_WITH_COMPLETION_TIMESTAMP,
                tuned.wcFlags());
        assertEquals(VerbsConstants.IBV_CREATE_CQ_ATTR_SINGLE_THREADED | VerbsConstants.IBV_CREATE_CQ_ATTR_IGNORE_OVERRUN,
                tuned.createFlags());
        assertEquals(2, tuned.completionVector());
        assertEquals(4, tuned.eventAckBatch());
        assertEquals(64, tuned.cqe());
        assertEquals(0, options.withFields(Set.of()).wcFlags());
    }

    @Test
    void optionsAreImmutableCopies() {
        EnumSet<CompletionField> fields = EnumSet.of(CompletionField.BYTE_LEN);
        CompletionQueueOptions options = CompletionQueueOptions.of(8).withFields(fields);
        fields.add(CompletionField.SL);
        assertEquals(Set.of(CompletionField.BYTE_LEN), options.fields());
        assertThrows(UnsupportedOperationException.class, () -> options.fields().add(CompletionField.SL));
        assertThrows(IllegalArgumentException.class, () -> options.withEventAckBatch(0));
    }
}
