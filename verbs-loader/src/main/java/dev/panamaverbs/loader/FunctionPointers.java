package dev.panamaverbs.loader;

import dev.panamaverbs.error.VerbsUnsupportedException;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/** Shared pieces of the invokers that call provider function pointers stored in structs. */
@SuppressWarnings("restricted") // native access is granted to this module on purpose
final class FunctionPointers {
    private FunctionPointers() {}

    /** A handle for any function with this C signature; the pointer is its first argument. */
    static MethodHandle invoker(FunctionDescriptor descriptor, Linker.Option... options) {
        return Linker.nativeLinker().downcallHandle(Natives.withRawAddresses(descriptor), options);
    }

    /** The function pointer stored at {@code object + offset}, never 0. */
    static long read(long object, long offset, String verb, String struct, String field) {
        Memory.requireNonNull(object, verb, struct.substring(struct.indexOf(' ') + 1));
        long function = Memory.readLong(object + offset);
        if (function == 0) {
            throw new VerbsUnsupportedException(verb, "the provider's " + struct + "." + field + " is NULL");
        }
        return function;
    }

    /** The function pointer at {@code object + offset} as a call target, or NULL when the provider left it unset. */
    static MemorySegment readOptional(long object, long offset) {
        long function = Memory.readLong(object + offset);
        return function == 0 ? MemorySegment.NULL : MemorySegment.ofAddress(function);
    }

    /** {@code function}, a target read by {@link #readOptional}, unless the provider left it NULL. */
    static MemorySegment present(MemorySegment function, String verb, String struct, String field) {
        if (function.address() == 0) {
            throw new VerbsUnsupportedException(verb, "the provider's " + struct + "." + field + " is NULL");
        }
        return function;
    }
}
