package dev.panamaverbs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.panamaverbs.gateway.Pointers;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.LongFunction;

/** What the send and the receive request's tests check of a failed post's {@code bad_wr}. */
final class BadRequestCheck {
    private BadRequestCheck() {}

    /**
     * Chains two requests (wr_ids 10 and 20): with {@code bad_wr} cleared the first describes it as
     * unset; with {@code bad_wr} pointing at the second, it names wr_id 20 as request 1 of the
     * chain; clearing zeroes the slot again.
     *
     * @param allocate a request with this wr_id
     * @param link     links the second argument after the first ({@code next(following)})
     * @param describe a request's {@code describeBadRequest()}
     * @param segment  a request's native segment
     * @param <T>      the request type
     */
    static <T extends WorkRequest<T>> void assertFoundInTheChain(LongFunction<T> allocate, BiConsumer<T, T> link,
            Function<T, String> describe, Function<T, MemorySegment> segment) {
        T first = allocate.apply(10);
        T second = allocate.apply(20);
        link.accept(first, second);
        first.clearBadRequest();
        assertEquals("bad_wr not set", describe.apply(first));
        MemorySegment slot = Pointers.sized(first.badRequestSlot().address(), 8);
        slot.set(ValueLayout.JAVA_LONG, 0, segment.apply(second).address());
        assertEquals("bad_wr wr_id=20 (request 1 of the chain)", describe.apply(first));
        first.clearBadRequest();
        assertEquals(0, slot.get(ValueLayout.JAVA_LONG, 0));
    }
}
