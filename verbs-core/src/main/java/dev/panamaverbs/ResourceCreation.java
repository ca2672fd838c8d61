package dev.panamaverbs;

import dev.panamaverbs.internal.NativeCalls;
import dev.panamaverbs.ffm.invoke.CallState;
import dev.panamaverbs.gateway.Pointers;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;

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
