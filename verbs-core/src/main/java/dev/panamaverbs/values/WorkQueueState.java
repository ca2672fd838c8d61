package dev.panamaverbs.values;

import static dev.panamaverbs.ffm.VerbsConstants.IBV_WQS_ERR;
import static dev.panamaverbs.ffm.VerbsConstants.IBV_WQS_RDY;
import static dev.panamaverbs.ffm.VerbsConstants.IBV_WQS_RESET;

/** The states {@link dev.panamaverbs.WorkQueue#modify(WorkQueueState)} moves a work queue to (C {@code enum ibv_wq_state}). */
public enum WorkQueueState implements NativeEnum {
    /** {@code IBV_WQS_RESET}: created, receives nothing. */
    RESET(IBV_WQS_RESET),
    /** {@code IBV_WQS_RDY}: receives. */
    READY(IBV_WQS_RDY),
    /** {@code IBV_WQS_ERR}: flushes its posted receives. */
    ERROR(IBV_WQS_ERR);

    private final int value;

    WorkQueueState(int value) {
        this.value = value;
    }

    @Override
    public int value() {
        return value;
    }
}
