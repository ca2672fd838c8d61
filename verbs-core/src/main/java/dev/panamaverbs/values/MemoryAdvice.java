package dev.panamaverbs.values;

import static dev.panamaverbs.ffm.VerbsConstants.IBV_ADVISE_MR_ADVICE_PREFETCH;
import static dev.panamaverbs.ffm.VerbsConstants.IBV_ADVISE_MR_ADVICE_PREFETCH_NO_FAULT;
import static dev.panamaverbs.ffm.VerbsConstants.IBV_ADVISE_MR_ADVICE_PREFETCH_WRITE;

/** Advice for {@link dev.panamaverbs.MemoryRegion#advise} (C {@code enum ibv_advise_mr_advice}, {@code ibv_advise_mr}). */
public enum MemoryAdvice implements NativeEnum {
    /** {@code IBV_ADVISE_MR_ADVICE_PREFETCH}: fault the pages in for reading. */
    PREFETCH(IBV_ADVISE_MR_ADVICE_PREFETCH),
    /** {@code IBV_ADVISE_MR_ADVICE_PREFETCH_WRITE}: fault the pages in writable. */
    PREFETCH_WRITE(IBV_ADVISE_MR_ADVICE_PREFETCH_WRITE),
    /** {@code IBV_ADVISE_MR_ADVICE_PREFETCH_NO_FAULT}: map the pages already present, fault none in. */
    PREFETCH_NO_FAULT(IBV_ADVISE_MR_ADVICE_PREFETCH_NO_FAULT);

    private final int value;

    MemoryAdvice(int value) {
        this.value = value;
    }

    @Override
    public int value() {
        return value;
    }
}
