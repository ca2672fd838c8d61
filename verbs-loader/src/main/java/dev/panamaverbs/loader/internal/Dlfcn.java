package dev.panamaverbs.loader.internal;

import dev.panamaverbs.ffm.invoke.Downcalls;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
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

    /** {@code sizeof(Dl_info)}: four pointers ({@code dli_fname}, {@code dli_fbase}, {@code dli_sname}, {@code dli_saddr}). */
    private static final long DL_INFO_SIZE = 4 * ADDRESS.byteSize();

    private static final FunctionDescriptor DLOPEN = FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_INT);
    private static final FunctionDescriptor DLVSYM = FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS, ADDRESS);
    private static final FunctionDescriptor DLERROR = FunctionDescriptor.of(ADDRESS);
    private static final FunctionDescriptor DLCLOSE = FunctionDescriptor.of(JAVA_INT, ADDRESS);
    private static final FunctionDescriptor DLADDR = FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS);

    /** libc's functions, bound on first use; null fields when libc could not offer them. */
    private static final class Libdl {
        static final MemorySegment OPEN_FUNCTION;
        static final MemorySegment VSYM_FUNCTION;
        static final MemorySegment ERROR_FUNCTION;
        static final MemorySegment CLOSE_FUNCTION;
        /** {@code dladdr}, or null when libc lacks it (then the loaded file is not reported). */
        static final MemorySegment ADDR_FUNCTION;
        static final MethodHandle OPEN;
        static final MethodHandle VSYM;
        static final MethodHandle ERROR;
        static final MethodHandle CLOSE;
        static final MethodHandle ADDR;
        /** Why the libc functions could not be bound, or null when they were. */
        static final String BIND_FAILURE;

        static {
            MemorySegment open = null, vsym = null, error = null, close = null, addr = null;
            String failure = null;
            try {
                open = Downcalls.libc("dlopen");
                vsym = Downcalls.libc("dlvsym");
                error = Downcalls.libc("dlerror");
                close = Downcalls.libc("dlclose");
            } catch (RuntimeException | LinkageError e) {
                // Recorded rather than thrown: a failing static initialiser would poison the class.
                failure = "cannot bind libc's dynamic-loading functions: " + e;
            }
            try {
                addr = Downcalls.libc("dladdr");
            } catch (RuntimeException | LinkageError e) {
                addr = null; // optional: only the report of the loaded file depends on it
            }
            OPEN_FUNCTION = open;
            VSYM_FUNCTION = vsym;
            ERROR_FUNCTION = error;
            CLOSE_FUNCTION = close;
            ADDR_FUNCTION = addr;
            BIND_FAILURE = failure;
            OPEN = Downcalls.handle(DLOPEN);
            VSYM = Downcalls.handle(DLVSYM);
            ERROR = Downcalls.handle(DLERROR);
            CLOSE = Downcalls.handle(DLCLOSE);
            ADDR = Downcalls.handle(DLADDR);
        }
    }

    private Dlfcn() {}

    /** Why the libc bindings are unusable, or empty when they work. */
    static Optional<String> bindFailure() {
        return Optional.ofNullable(Libdl.BIND_FAILURE);
    }

    /** {@code dlopen(path, RTLD_NOW | RTLD_LOCAL)}; {@link MemorySegment#NULL} on failure. */
    static MemorySegment open(String path) {
        try (Arena arena = Arena.ofConfined()) {
            return (MemorySegment) Libdl.OPEN.invokeExact(Libdl.OPEN_FUNCTION, arena.allocateFrom(path), RTLD_NOW | RTLD_LOCAL);
        } catch (Throwable t) {
            throw Downcalls.rethrow("dlopen", t);
        }
    }

    /** {@code dlvsym(handle, name, version)}; {@link MemorySegment#NULL} when absent. */
    static MemorySegment versionedSymbol(MemorySegment handle, String name, String version) {
        try (Arena arena = Arena.ofConfined()) {
            return (MemorySegment) Libdl.VSYM.invokeExact(Libdl.VSYM_FUNCTION, handle, arena.allocateFrom(name), arena.allocateFrom(version));
        } catch (Throwable t) {
            throw Downcalls.rethrow("dlvsym", t);
        }
    }

    /** {@code dlerror()}: the last error text of this thread, clearing it; empty when none. */
    static String lastError() {
        try {
            MemorySegment text = (MemorySegment) Libdl.ERROR.invokeExact(Libdl.ERROR_FUNCTION);
            return text.equals(MemorySegment.NULL) ? "" : text.reinterpret(Integer.MAX_VALUE).getString(0);
        } catch (Throwable t) {
            throw Downcalls.rethrow("dlerror", t);
        }
    }

    /**
     * The file of the shared object containing {@code address}: {@code dladdr}'s
     * {@code dli_fname} (the path the dynamic linker found, e.g. {@code /lib/x86_64-linux-gnu/libibverbs.so.1}),
     * with its symbolic links resolved ({@code libibverbs.so.1.14.44.0}). Empty when libc has no
     * {@code dladdr} or it does not know the address.
     */
    static Optional<String> fileContaining(MemorySegment address) {
        if (Libdl.ADDR_FUNCTION == null) {
            return Optional.empty();
        }
        String name;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment info = arena.allocate(DL_INFO_SIZE, ADDRESS.byteAlignment());
            int found = (int) Libdl.ADDR.invokeExact(Libdl.ADDR_FUNCTION, address, info);
            MemorySegment fname = info.get(ADDRESS, 0);
            if (found == 0 || fname.equals(MemorySegment.NULL)) {
                return Optional.empty();
            }
            name = fname.reinterpret(Integer.MAX_VALUE).getString(0);
        } catch (Throwable t) {
            throw Downcalls.rethrow("dladdr", t);
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
            return (int) Libdl.CLOSE.invokeExact(Libdl.CLOSE_FUNCTION, handle);
        } catch (Throwable t) {
            throw Downcalls.rethrow("dlclose", t);
        }
    }

}
