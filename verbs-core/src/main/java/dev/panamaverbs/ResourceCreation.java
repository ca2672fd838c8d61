package dev.panamaverbs;

import dev.panamaverbs.internal.NativeCalls;
import dev.panamaverbs.ffm.invoke.CallState;
import dev.panamaverbs.gateway.Pointers;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Objects;
import java.lang.foreign.MemoryLayout;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.LongToIntFunction;
import java.util.function.ToLongFunction;
import dev.panamaverbs.values.Errno;
import java.util.function.ToIntBiFunction;

/**
 * The one path of the create verbs that answer a new object or NULL with errno ({@code ibv_alloc_td},
 * {@code ibv_create_counters}, {@code ibv_open_xrcd}, {@code ibv_create_wq}, ...): the objects the
 * new one depends on are held open across the call, its attributes live in a confined arena, a
 * NULL answer throws naming the verb and errno, and the new resource is registered with its parent
 * before it is handed out.
 */
final class ResourceCreation {
    private ResourceCreation() {
    }

    /**
     * A resource freed by one verb named when it is made: either one that takes the object's
     * address and answers an errno ({@code ibv_destroy_flow}, ...), or one of the first
     * convention, with a call state ({@code ibv_destroy_qp}, {@code ibv_destroy_ah}: see
     * {@link NativeCalls#destroy}).
     */
    abstract static class FreedBy extends VerbsResource {
        private final String destroyVerb;
        private final LongToIntFunction byAddress;
        private final ToIntBiFunction<MemorySegment, MemorySegment> withCallState;

        FreedBy(String kind, MemorySegment handle, String destroyVerb, LongToIntFunction destroy,
                VerbsResource... dependencies) {
            super(kind, handle, dependencies);
            this.destroyVerb = destroyVerb;
            this.byAddress = destroy;
            this.withCallState = null;
        }

        FreedBy(String kind, MemorySegment handle, VerbsResource parent, String destroyVerb,
                ToIntBiFunction<MemorySegment, MemorySegment> destroy) {
            super(kind, handle, parent);
            this.destroyVerb = destroyVerb;
            this.byAddress = null;
            this.withCallState = destroy;
        }

        /** Frees the native object with the destroy verb named at creation, checking its answer. */
        @Override
        protected final void destroy() {
            if (byAddress != null) {
                NativeCalls.checkReturnedErrno(destroyVerb, byAddress.applyAsInt(handleAddress()));
            } else {
                NativeCalls.destroy(destroyVerb, withCallState, handleSegment());
            }
        }
    }

    /**
     * A resource whose parent is its context ({@link Counters}, {@link ThreadDomain},
     * {@link XrcDomain}, {@link DeviceMemory}). Their creation holds the context as a
     * {@link VerbsResource}: it needs its handle and liveness only; {@link #context()} gives it back typed.
     */
    abstract static class OnContext extends FreedBy {
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

    /** A create verb on a context, errno captured into {@code callState}; answers the new object's address, 0 on failure. */
    @FunctionalInterface
    interface ContextCreate {
        long call(MemorySegment callState, long context, long attributes);
    }

    /**
     * Creates a child of {@code context} (null checked first) whose only dependency is the context,
     * with the verb's attributes zeroed ({@code layout}).
     *
     * @see #onContext(String, long, VerbsResource, Attributes, ContextCreate, BiFunction)
     */
    static <T extends VerbsResource> T onContext(String verb, long structSize, VerbsResource context, MemoryLayout layout,
                                                 ContextCreate create, BiFunction<VerbsResource, MemorySegment, T> wrap) {
        return onContext(verb, structSize, context, arena -> arena.allocate(layout), create, wrap);
    }

    /**
     * Checks the two arguments every create verb of a child takes (its parent, its description)
     * for null, in that order.
     *
     * @throws NullPointerException with {@code verb: what} for the first one that is null
     */
    static void requireArguments(String verb, Object parent, String parentIsNull, Object options, String optionsAreNull) {
        Objects.requireNonNull(parent, () -> verb + ": " + parentIsNull);
        Objects.requireNonNull(options, () -> verb + ": " + optionsAreNull);
    }

    /**
     * Creates a child of {@code context} (null checked first) whose only dependency is the context.
     *
     * @see #create
     */
    static <T extends VerbsResource> T onContext(String verb, long structSize, VerbsResource context, Attributes attributes,
                                                 ContextCreate create, BiFunction<VerbsResource, MemorySegment, T> wrap) {
        Objects.requireNonNull(context, () -> verb + ": context is null");
        return create(verb, structSize, List.of(context), attributes,
                (state, attr) -> create.call(state, context.handleAddress(), attr),
                (handle, attr) -> wrap.apply(context, handle));
    }

    /**
     * Imports an object another process exported ({@code ibv_import_pd}, {@code ibv_import_mr}):
     * needs {@link Capability#IMPORT}; holds {@code from} across the call; a NULL answer throws
     * {@link VerbsUnsupportedException} when its errno means unsupported, else
     * {@link VerbsException}; the new resource is registered before it is handed out.
     *
     * @param call makes the call with the call state it is given, answers the address or 0
     * @param wrap builds the resource from its handle, sized to {@code structSize}
     */
    static <T extends VerbsResource> T importFrom(String verb, long structSize, VerbsResource from,
                                                  ToLongFunction<MemorySegment> call, Function<MemorySegment, T> wrap) {
        Capability.IMPORT.require(verb);
        from.acquire();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = CallState.allocate(arena);
            long address = call.applyAsLong(state);
            int errno = CallState.errno(state);
            if (address == 0 && Errno.meansUnsupported(errno)) {
                throw new VerbsUnsupportedException(verb, errno);
            }
            NativeCalls.checkPointer(verb, MemorySegment.ofAddress(address), errno);
            T resource = wrap.apply(Pointers.sized(address, structSize));
            resource.register();
            return resource;
        } finally {
            from.release();
        }
    }

    /** Lays out the verb's attribute struct (and what it points to) in the call's confined arena. */
    @FunctionalInterface
    interface Attributes {
        MemorySegment fill(Arena arena);
    }

    /** The native call, errno captured into {@code callState}; answers the new object's address, 0 on failure. */
    @FunctionalInterface
    interface NativeCreate {
        long call(MemorySegment callState, long attributes);
    }

    /** Builds the resource from its checked handle (sized to its struct) and the attributes the provider may have written back. */
    @FunctionalInterface
    interface Wrap<T extends VerbsResource> {
        T wrap(MemorySegment handle, MemorySegment attributes);
    }

    /**
     * Creates one resource.
     *
     * @param verb       the C verb, for the exception
     * @param structSize the size of the C struct the verb answers
     * @param held       the open resources the call uses (parent first), acquired for its duration
     * @param attributes lays out the verb's attributes
     * @param create     makes the call
     * @param wrap       builds the resource
     * @return the registered resource
     * @throws VerbsException naming {@code verb} and errno when the verb answers NULL
     * @throws IllegalStateException when one of {@code held} is closed
     */
    static <T extends VerbsResource> T create(String verb, long structSize, List<? extends VerbsResource> held,
                                              Attributes attributes, NativeCreate create, Wrap<T> wrap) {
        int acquired = 0;
        try (Arena arena = Arena.ofConfined()) {
            for (VerbsResource resource : held) {
                resource.acquire();
                acquired++;
            }
            MemorySegment attr = attributes.fill(arena);
            MemorySegment state = CallState.allocate(arena);
            long address = create.call(state, attr.address());
            NativeCalls.checkPointer(verb, MemorySegment.ofAddress(address), CallState.errno(state));
            T resource = wrap.wrap(Pointers.sized(address, structSize), attr);
            resource.register();
            return resource;
        } finally {
            for (int i = 0; i < acquired; i++) {
                held.get(i).release();
            }
        }
    }
}
