package dev.panamaverbs;

import java.lang.foreign.MemorySegment;
import java.util.function.LongToIntFunction;

/**
 * A resource whose parent is its context ({@link Counters}, {@link ThreadDomain},
 * {@link XrcDomain}, {@link DeviceMemory}). Their creation holds the context as a
 * {@link VerbsResource}: it needs its handle and liveness only; {@link #context()} gives it back typed.
 */
abstract class OnContext extends ResourceCreation.FreedBy {
    OnContext(String kind, MemorySegment handle, VerbsResource context, String destroyVerb, LongToIntFunction destroy) {
        super(kind, handle, destroyVerb, destroy, context);
    }

    /**
     * The context this object was created on.
     *
     * @return the context
     * @throws IllegalStateException if closed
     */
    public Context context() {
        return whileOpen(parent());
    }

    /** Nothing tells one such object from another but its address: an empty description. */
    @Override
    protected String describe() {
        return "";
    }
}
