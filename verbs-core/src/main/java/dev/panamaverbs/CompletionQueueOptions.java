package dev.panamaverbs;

import dev.panamaverbs.internal.UnackedEvents;
import dev.panamaverbs.values.BitFlag;
import dev.panamaverbs.values.CompletionField;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * What an extended completion queue is created with ({@code struct ibv_cq_init_attr_ex} for
 * {@code ibv_create_cq_ex}); {@code Context.createCompletionQueue(CompletionQueueOptions)} takes it.
 * Start from {@link #of(int)} and refine with the {@code with*} methods.
 *
 * @param cqe              {@code cqe}: the minimum number of entries, 1..{@code max_cqe}
 * @param channel          {@code channel}: where completion events go, or {@code null} for none
 * @param completionVector {@code comp_vector}: 0..{@code num_comp_vectors - 1}
 * @param fields           {@code wc_flags}: the fields each completion reports, each one
 *                         {@link CompletionField#isReadable() readable}
 * @param singleThreaded   {@code IBV_CREATE_CQ_ATTR_SINGLE_THREADED}: the provider may skip locking
 *                         (only one thread at a time may then use the CQ)
 * @param ignoreOverrun    {@code IBV_CREATE_CQ_ATTR_IGNORE_OVERRUN}: no error when the CQ overflows
 * @param eventAckBatch    completion events acknowledged per {@code ibv_ack_cq_events} call
 */
public record CompletionQueueOptions(
        int cqe,
        CompletionChannel channel,
        int completionVector,
        Set<CompletionField> fields,
        boolean singleThreaded,
        boolean ignoreOverrun,
        int eventAckBatch) {

    /**
     * Checks the components.
     *
     * @throws IllegalArgumentException naming {@code ibv_create_cq_ex} when a field has no reader
     *         ({@link CompletionField#isReadable()}) or the ack batch is out of range
     */
    public CompletionQueueOptions {
        Objects.requireNonNull(fields, "fields");
        fields = Collections.unmodifiableSet(fields.isEmpty() ? EnumSet.noneOf(CompletionField.class) : EnumSet.copyOf(fields));
        CompletionField.requireReadable("ibv_create_cq_ex", fields);
        UnackedEvents.checkBatch(eventAckBatch);
    }

    /**
     * {@code cqe} entries, no channel, vector 0, the standard fields, default flags and ack batch.
     *
     * @param cqe the number of completion queue entries
     * @return {@code cqe} entries, no channel, vector 0, the standard fields, default flags and ack batch
     */
    public static CompletionQueueOptions of(int cqe) {
        return new CompletionQueueOptions(cqe, null, 0, CompletionField.STANDARD, false, false, UnackedEvents.DEFAULT_BATCH);
    }

    /**
     * These options with completion events going to {@code newChannel} ({@code null}: none).
     *
     * @param newChannel the new completion channel
     * @return new options: these, with that one change
     */
    public CompletionQueueOptions withChannel(CompletionChannel newChannel) {
        return new CompletionQueueOptions(cqe, newChannel, completionVector, fields, singleThreaded, ignoreOverrun, eventAckBatch);
    }

    /**
     * These options with completion vector {@code vector}.
     *
     * @param vector the completion vector
     * @return new options: these, with that one change
     */
    public CompletionQueueOptions withCompletionVector(int vector) {
        return new CompletionQueueOptions(cqe, channel, vector, fields, singleThreaded, ignoreOverrun, eventAckBatch);
    }

    /**
     * These options reporting {@code newFields}.
     *
     * @param newFields the fields to modify
     * @return new options: these, with that one change
     * @throws IllegalArgumentException naming {@code ibv_create_cq_ex} when a field has no reader
     *         ({@link CompletionField#isReadable()})
     */
    public CompletionQueueOptions withFields(Set<CompletionField> newFields) {
        return new CompletionQueueOptions(cqe, channel, completionVector, newFields, singleThreaded, ignoreOverrun, eventAckBatch);
    }

    /**
     * These options with {@code IBV_CREATE_CQ_ATTR_SINGLE_THREADED} set or not.
     *
     * @param value true to set the flag
     * @return new options: these, with that one change
     */
    public CompletionQueueOptions withSingleThreaded(boolean value) {
        return new CompletionQueueOptions(cqe, channel, completionVector, fields, value, ignoreOverrun, eventAckBatch);
    }

    /**
     * These options with {@code IBV_CREATE_CQ_ATTR_IGNORE_OVERRUN} set or not.
     *
     * @param value true to set the flag
     * @return new options: these, with that one change
     */
    public CompletionQueueOptions withIgnoreOverrun(boolean value) {
        return new CompletionQueueOptions(cqe, channel, completionVector, fields, singleThreaded, value, eventAckBatch);
    }

    /**
     * These options acknowledging completion events {@code batch} at a time.
     *
     * @param batch how many in one batch
     * @return new options: these, with that one change
     */
    public CompletionQueueOptions withEventAckBatch(int batch) {
        return new CompletionQueueOptions(cqe, channel, completionVector, fields, singleThreaded, ignoreOverrun, batch);
    }

    /** {@code wc_flags} as C wants it. */
    long wcFlags() {
        return BitFlag.toBits(fields) & 0xFFFF_FFFFL;
    }

    /** {@code ibv_cq_init_attr_ex.flags} as C wants it. */
    int createFlags() {
        return (singleThreaded ? dev.panamaverbs.ffm.VerbsConstants.IBV_CREATE_CQ_ATTR_SINGLE_THREADED : 0)
                | (ignoreOverrun ? dev.panamaverbs.ffm.VerbsConstants.IBV_CREATE_CQ_ATTR_IGNORE_OVERRUN : 0);
    }
}
