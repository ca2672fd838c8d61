package dev.panamaverbs.loader;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.nio.file.Path;
import java.util.Optional;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * glibc's {@code dlopen}, {@code dlvsym}, {@code dlerror}, {@code dlclose} and {@code dladdr}, called through FFM
 * so that libibverbs is opened at run time and never linked. Only initialise this class after
 * {@link NativeAccess#isEnabled()} said yes: creating the handles is a restricted operation.
 *
 * <p>Callers serialise use (the probe holds a lock) because {@code dlerror} state is per thread
 * and must be read right after the failing call.
 */
@SuppressWarnings("restricted") // native access is granted to this module on purpose
final class Dlfcn {
    /** {@code RTLD_NOW}: resolve the library's own undefined symbols now, so failures show at open. */
    static final int RTLD_NOW = 0x2;
    /** {@code RTLD_LOCAL}: keep libibverbs' symbols out of the global namespace. */
    static final int RTLD_LOCAL = 0x0;

    private static final MethodHandle DLOPEN;
    private static final MethodHandle DLVSYM;
    private static final MethodHandle DLERROR;
    private static final MethodHandle DLCLOSE;
    /** {@code dladdr}, or null when libc lacks it (then the loaded file is not reported). */
    private static final MethodHandle DLADDR;
    /** {@code sizeof(Dl_info)}: four pointers ({@code dli_fname}, {@code dli_fbase}, {@code dli_sname}, {@code dli_saddr}). */
    private static final long DL_INFO_SIZE = 4 * ADDRESS.byteSize();
    /** Why the libc functions could not be bound, or null when they were. */
    private static final String BIND_FAILURE;

    static {
        MethodHandle open = null, vsym = null, error = null, close = null;
        String failure = null;
        try {
            Linker linker = Linker.nativeLinker();
            SymbolLookup libc = linker.defaultLookup();
            open = linker.downcallHandle(find(libc, "dlopen"), FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_INT));
            vsym = linker.downcallHandle(find(libc, "dlvsym"), FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS, ADDRESS));
            error = linker.downcallHandle(find(libc, "dlerror"), FunctionDescriptor.of(ADDRESS));
            close = linker.downcallHandle(find(libc, "dlclose"), FunctionDescriptor.of(JAVA_INT, ADDRESS));
        } catch (RuntimeException | LinkageError e) {
            // Recorded rather than thrown: a failing static initialiser would poison the class.
            failure = "cannot bind libc's dynamic-loading functions: " + e;
            open = vsym = error = close = null;
        }
        DLOPEN = open;
        DLVSYM = vsym;
        DLERROR = error;
        DLCLOSE = close;
        BIND_FAILURE = failure;
        MethodHandle addr = null;
        try {
            Linker linker = Linker.nativeLinker();
            addr = linker.defaultLookup().find("dladdr")
                    .map(f -> linker.downcallHandle(f, FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS)))
                    .orElse(null);
        } catch (RuntimeException | LinkageError e) {
            addr = null; // optional: only the report of the loaded file depends on it
        }
        DLADDR = addr;
    }

    private Dlfcn() {}

    private static MemorySegment find(SymbolLookup lookup, String name) {
        return lookup.find(name).orElseThrow(() -> new IllegalStateException("libc has no " + name));
    }

    /** Why the libc bindings are unusable, or empty when they work. */
    static Optional<String> bindFailure() {
        return Optional.ofNullable(BIND_FAILURE);
    }

    /** {@code dlopen(path, RTLD_NOW | RTLD_LOCAL)}; {@link MemorySegment#NULL} on failure. */
    static MemorySegment open(String path) {
        try (Arena arena = Arena.ofConfined()) {
            return (MemorySegment) DLOPEN.invokeExact(arena.allocateFrom(path), RTLD_NOW | RTLD_LOCAL);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** {@code dlvsym(handle, name, version)}; {@link MemorySegment#NULL} when absent. */
    static MemorySegment versionedSymbol(MemorySegment handle, String name, String version) {
        try (Arena arena = Arena.ofConfined()) {
            return (MemorySegment) DLVSYM.invokeExact(handle, arena.allocateFrom(name), arena.allocateFrom(version));
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** {@code dlerror()}: the last error text of this thread, clearing it; empty when none. */
    static String lastError() {
        try {
            MemorySegment text = (MemorySegment) DLERROR.invokeExact();
            return text.equals(MemorySegment.NULL) ? "" : text.reinterpret(Integer.MAX_VALUE).getString(0);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /**
     * The file of the shared object containing {@code address}: {@code dladdr}'s
     * {@code dli_fname} (the path the dynamic linker found, e.g. {@code /lib/x86_64-linux-gnu/libibverbs.so.1}),
     * with its symbolic links resolved ({@code libibverbs.so.1.14.44.0}). Empty when libc has no
     * {@code dladdr} or it does not know the address.
     */
    static Optional<String> fileContaining(MemorySegment address) {
        if (DLADDR == null) {
            return Optional.empty();
        }
        String name;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment info = arena.allocate(DL_INFO_SIZE, ADDRESS.byteAlignment());
            int found = (int) DLADDR.invokeExact(address, info);
            MemorySegment fname = info.get(ADDRESS, 0);
            if (found == 0 || fname.equals(MemorySegment.NULL)) {
                return Optional.empty();
            }
            name = fname.reinterpret(Integer.MAX_VALUE).getString(0);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (name.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(Path.of(name).toRealPath().toString());
        } catch (IOException | RuntimeException e) {
            return Optional.of(name); // the file went away or is not a path: report what the linker said
        }
    }

    /** {@code dlclose(handle)}; 0 on success. */
    static int close(MemorySegment handle) {
        try {
            return (int) DLCLOSE.invokeExact(handle);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    private static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException re) {
            return re;
        }
        if (t instanceof Error e) {
            throw e;
        }
        return new IllegalStateException(t);
    }
}
