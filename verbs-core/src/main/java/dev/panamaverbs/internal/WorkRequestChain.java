package dev.panamaverbs.internal;

import dev.panamaverbs.ReceiveWorkRequest;
import dev.panamaverbs.SendWorkRequest;
import java.util.function.ToLongFunction;
import java.util.function.UnaryOperator;

/**
 * How one kind of work request ({@link SendWorkRequest}, {@link ReceiveWorkRequest}) forms a C
 * {@code wr->next} chain: the loop check before linking, and after a failed post, which request
 * of the chain the provider named in {@code bad_wr}. One constant per kind; nothing allocates.
 *
 * @param <R> the work request class
 */
public final class WorkRequestChain<R> {
    private final String verb;
    private final UnaryOperator<R> next;
    private final ToLongFunction<R> address;
    private final ToLongFunction<R> wrId;

    /**
     * @param verb    the post verb, for messages
     * @param next    the request chained after a request, or {@code null}
     * @param address a request's native address (what {@code wr->next} and {@code bad_wr} hold)
     * @param wrId    a request's {@code wr_id}
     */
    public WorkRequestChain(String verb, UnaryOperator<R> next, ToLongFunction<R> address, ToLongFunction<R> wrId) {
        this.verb = verb;
        this.next = next;
        this.address = address;
        this.wrId = wrId;
    }

    /**
     * Checks that chaining {@code following} after {@code request} makes no loop, i.e. that
     * {@code request} is not in the chain that starts at {@code following}.
     *
     * @throws IllegalArgumentException naming the verb and {@code request}'s wr_id if it would
     */
    public void checkNoLoop(R request, R following) {
        for (R r = following; r != null; r = next.apply(r)) {
            if (r == request) {
                throw new IllegalArgumentException(verb + ": chaining would make a loop through wr_id="
                        + wrId.applyAsLong(request));
            }
        }
    }

    /** The value of {@code wr->next} for {@code following}: its address, or 0 to end the chain. */
    public long nextAddress(R following) {
        return following == null ? 0L : address.applyAsLong(following);
    }

    /**
     * Which request of the chain starting at {@code head} the provider reported in {@code bad_wr}
     * (the slot's value {@code badRequest}), as {@code "bad_wr wr_id=N (request K of the chain)"},
     * for the exception message.
     */
    public String describeBadRequest(R head, long badRequest) {
        if (badRequest == 0) {
            return "bad_wr not set";
        }
        int position = 0;
        for (R r = head; r != null; r = next.apply(r), position++) {
            if (address.applyAsLong(r) == badRequest) {
                return "bad_wr wr_id=" + wrId.applyAsLong(r) + " (request " + position + " of the chain)";
            }
        }
        return "bad_wr 0x" + Long.toHexString(badRequest) + " is not in the chain";
    }
}
