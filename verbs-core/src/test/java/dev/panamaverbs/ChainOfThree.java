package dev.panamaverbs;

import java.util.function.BiConsumer;
import java.util.function.LongFunction;

/**
 * Three work requests with wr_ids 1, 2 and 3, chained {@code first -> second -> third}: what the
 * send and the receive request's chaining tests start from.
 *
 * @param <T> the request type
 */
record ChainOfThree<T>(T first, T second, T third) {
    /**
     * Allocates the three (each with its wr_id) and links them.
     *
     * @param allocate a request with this wr_id
     * @param link     links the second argument after the first ({@code next(following)})
     */
    static <T> ChainOfThree<T> of(LongFunction<T> allocate, BiConsumer<T, T> link) {
        ChainOfThree<T> chain = new ChainOfThree<>(allocate.apply(1), allocate.apply(2), allocate.apply(3));
        link.accept(chain.first, chain.second);
        link.accept(chain.second, chain.third);
        return chain;
    }
}
