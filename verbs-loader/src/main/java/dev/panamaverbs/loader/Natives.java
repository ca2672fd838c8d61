package dev.panamaverbs.loader;

import dev.panamaverbs.library.Capability;
import java.lang.foreign.AddressLayout;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.Optional;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Downcall handles for exported libibverbs functions, bound to the addresses the probe resolved.
 * Every handle captures errno: its first parameter is a {@link CallState} segment.
 *
 * <p>Store the handles in {@code static final} fields of holder classes that are initialised only
 * after {@link LibIbverbs#ensureAvailable()} returned, and call them with {@code invokeExact}.
 */
@SuppressWarnings("restricted") // native access is granted to this module on purpose
public final class Natives {
    private Natives() {}

    /**
     * A handle for the required function {@code name} (see the required list), with the generated
     * descriptor ({@code ADDRESS} for pointers) and a leading {@code MemorySegment} capture state.
     *
     * @throws dev.panamaverbs.error.VerbsUnavailableException when libibverbs is unavailable
     * @throws IllegalArgumentException when {@code name} is not a required function
     */
    public static MethodHandle downcall(String name) {
        return downcall(name, requiredSpec(name).descriptor());
    }

    /**
     * As {@link #downcall(String)} with a descriptor of the caller's choosing, e.g.
     * {@link #withRawAddresses(FunctionDescriptor)} of the generated one to pass raw addresses.
     */
    public static MethodHandle downcall(String name, FunctionDescriptor descriptor) {
        requiredSpec(name);
        LibIbverbs.ensureAvailable();
        MemorySegment address = LibIbverbs.result().address(name)
                .orElseThrow(() -> new IllegalStateException(name + " was not resolved"));
        return bind(address, descriptor);
    }

    /**
     * A handle for the optional function {@code name} when its {@link Capability} was found,
     * else empty. Same shape as {@link #downcall(String)}.
     */
    public static Optional<MethodHandle> optionalDowncall(String name) {
        return optionalDowncall(name, optionalSpec(name).descriptor());
    }

    /** As {@link #optionalDowncall(String)} with a descriptor of the caller's choosing. */
    public static Optional<MethodHandle> optionalDowncall(String name, FunctionDescriptor descriptor) {
        optionalSpec(name);
        LibIbverbs.ensureAvailable();
        return LibIbverbs.result().address(name).map(address -> bind(address, descriptor));
    }

    /** The generated descriptor of the exported function {@code name}. */
    public static FunctionDescriptor descriptor(String name) {
        return ExportedFunctions.spec(name).descriptor();
    }

    /**
     * {@code descriptor} with every pointer ({@code ADDRESS}) argument and return replaced by
     * {@code JAVA_LONG}: raw addresses skip the per-call segment checks on the data path.
     */
    public static FunctionDescriptor withRawAddresses(FunctionDescriptor descriptor) {
        MemoryLayout[] arguments = descriptor.argumentLayouts().stream()
                .map(Natives::raw).toArray(MemoryLayout[]::new);
        return descriptor.returnLayout()
                .map(returned -> FunctionDescriptor.of(raw(returned), arguments))
                .orElseGet(() -> FunctionDescriptor.ofVoid(arguments));
    }

    private static MemoryLayout raw(MemoryLayout layout) {
        return layout instanceof AddressLayout ? JAVA_LONG : layout;
    }

    static MethodHandle bind(MemorySegment address, FunctionDescriptor descriptor) {
        return Linker.nativeLinker().downcallHandle(address, descriptor, CallState.CAPTURE_ERRNO);
    }

    private static SymbolSpec requiredSpec(String name) {
        if (RequiredSymbols.NAMES.contains(name)) {
            return ExportedFunctions.spec(name);
        }
        Capability capability = Capability.providing(name);
        if (capability != null) {
            throw new IllegalArgumentException(name + " is optional (Capability." + capability
                    + "): use Natives.optionalDowncall");
        }
        throw notExported(name);
    }

    private static SymbolSpec optionalSpec(String name) {
        if (Capability.providing(name) != null) {
            return ExportedFunctions.spec(name);
        }
        if (RequiredSymbols.NAMES.contains(name)) {
            throw new IllegalArgumentException(name + " is required, not optional: use Natives.downcall");
        }
        throw notExported(name);
    }

    private static IllegalArgumentException notExported(String name) {
        if (ExportedFunctions.isInline(name)) {
            return new IllegalArgumentException(name + " is static inline in verbs.h and not exported:"
                    + " use OpsTable, ExtendedOps or InlineVerbs");
        }
        return new IllegalArgumentException(name + " is neither a required nor an optional libibverbs function");
    }
}
