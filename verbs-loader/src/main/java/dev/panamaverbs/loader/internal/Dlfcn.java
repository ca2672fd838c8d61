package dev.panamaverbs.loader.internal;

import dev.panamaverbs.ffm.invoke.Downcalls;

import java.io.BufferedReader;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * glibc's {@code dlopen}, {@code dlvsym}, {@code dlerror} and {@code dlclose}, called through FFM
 * so that libibverbs is opened at run time and never linked. Only initialise this class after
 * {@link NativeAccess#isEnabled()} said yes: creating the handles is a restricted operation.
 *
 * <p>Callers serialise use (the probe holds a lock) because {@code dlerror} state is per thread
 * and must be read right after the failing call.
 *
 * <p>Each downcall handle costs about 10 ms in a cold JVM, and {@code Verbs.isAvailable()} is
 * often an application's first call: only the three functions every probe calls are bound up
 * front; {@code dlclose}, which only a failed probe needs, is bound on first use in a holder class
 * of its own, and the loaded file's name comes from {@code /proc/self/maps} instead of {@code dladdr}.
 */
@SuppressWarnings("restricted") // native access is granted to this module on purpose
final class Dlfcn {
    /** {@code RTLD_NOW}: resolve the library's own undefined symbols now, so failures show at open. */
    static final int RTLD_NOW = 0x2;
    /** {@code RTLD_LOCAL}: keep libibverbs' symbols out of the global namespace. */
    static final int RTLD_LOCAL = 0x0;

    private static final Path PROC_SELF_MAPS = Path.of("/proc/self/maps");

    /** The functions every probe calls; a failure to bind them is recorded, never thrown. */
    private static final class Libdl {
        static final MemorySegment OPEN_FUNCTION;
        static final MemorySegment VSYM_FUNCTION;
        static final MemorySegment ERROR_FUNCTION;
        static final MethodHandle OPEN;
        static final MethodHandle VSYM;
        static final MethodHandle ERROR;
        static final String BIND_FAILURE;

        static {
            MemorySegment open = null, vsym = null, error = null;
            String failure = null;
            try {
                open = Downcalls.libc("dlopen");
                vsym = Downcalls.libc("dlvsym");
                error = Downcalls.libc("dlerror");
            } catch (RuntimeException | LinkageError e) {
                // Recorded rather than thrown: a failing static initialiser would poison the class.
                failure = "cannot bind libc's dynamic-loading functions: " + e;
            }
            OPEN_FUNCTION = open;
            VSYM_FUNCTION = vsym;
            ERROR_FUNCTION = error;
            BIND_FAILURE = failure;
            OPEN = Downcalls.handle(FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_INT));
            VSYM = Downcalls.handle(FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG));
            ERROR = Downcalls.handle(FunctionDescriptor.of(ADDRESS));
        }
    }

    /** {@code dlclose}: only a probe that fails needs it. */
    private static final class Libdlclose {
        static final MemorySegment FUNCTION = Downcalls.libc("dlclose");
        static final MethodHandle HANDLE = Downcalls.handle(FunctionDescriptor.of(JAVA_INT, ADDRESS));
    }

    private Dlfcn() {}

    /** Why libc's dynamic-loading functions could not be bound, if they could not. */
    static Optional<String> bindFailure() {
        return Optional.ofNullable(Libdl.BIND_FAILURE);
    }

    /** {@code dlopen(path, RTLD_NOW | RTLD_LOCAL)}; {@link MemorySegment#NULL} on failure (see {@link #lastError()}). */
    static MemorySegment open(String path) {
        try (Arena arena = Arena.ofConfined()) {
            return (MemorySegment) Libdl.OPEN.invokeExact(Libdl.OPEN_FUNCTION, arena.allocateFrom(path), RTLD_NOW | RTLD_LOCAL);
        } catch (Throwable t) {
            throw Downcalls.rethrow("dlopen", t);
        }
    }

    /**
     * {@code dlvsym(handle, names[i], versions[i])} for every i; {@link MemorySegment#NULL} where
     * absent. Every C string lies in one segment, and the calls pass raw addresses: the loop runs
     * interpreted in a cold JVM, where an allocation per string and the checks of segment
     * arguments showed (67 look-ups took 25-30 ms of the first {@code isAvailable()}).
     *
     * @param names    symbol names (C identifiers: ASCII)
     * @param versions their versions, index for index (ASCII)
     */
    static MemorySegment[] versionedSymbols(MemorySegment handle, List<String> names, List<String> versions) {
        int count = names.size();
        int[] nameAt = new int[count];
        int[] versionAt = new int[count];
        StringBuilder table = new StringBuilder(count * 40);
        for (int i = 0; i < count; i++) {
            nameAt[i] = table.length();
            table.append(names.get(i)).append('\0');
            versionAt[i] = table.length();
            table.append(versions.get(i)).append('\0');
        }
        MemorySegment[] found = new MemorySegment[count];
        try (Arena arena = Arena.ofConfined()) {
            // US-ASCII: one byte per char, so the offsets above are byte offsets.
            long strings = arena.allocateFrom(table.toString(), StandardCharsets.US_ASCII).address();
            long library = handle.address();
            for (int i = 0; i < count; i++) {
                long address = (long) Libdl.VSYM.invokeExact(Libdl.VSYM_FUNCTION, library, strings + nameAt[i], strings + versionAt[i]);
                found[i] = MemorySegment.ofAddress(address);
            }
        } catch (Throwable t) {
            throw Downcalls.rethrow("dlvsym", t);
        }
        return found;
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
     * The file of the shared object mapped at {@code address}, from {@code /proc/self/maps} (the
     * kernel's path of the mapping: symbolic links resolved, e.g. {@code libibverbs.so.1.14.44.0}).
     * Read in Java rather than through {@code dladdr}, which would cost one more downcall handle at
     * start-up. Empty when no mapping holds the address or the file cannot be read.
     */
    static Optional<String> fileContaining(MemorySegment address) {
        long wanted = address.address();
        try (BufferedReader maps = Files.newBufferedReader(PROC_SELF_MAPS)) {
            for (String line = maps.readLine(); line != null; line = maps.readLine()) {
                Optional<String> file = mappedFile(line, wanted);
                if (file.isPresent()) {
                    return file;
                }
            }
        } catch (IOException e) {
            // no /proc: the caller reports the library by the name it asked for
        }
        return Optional.empty();
    }

    /** The path of one {@code /proc/self/maps} line ({@code start-end perms offset dev inode path}) if it maps {@code address}. */
    static Optional<String> mappedFile(String mapsLine, long address) {
        String[] fields = mapsLine.trim().split("\\s+", 6);
        int dash = fields[0].indexOf('-');
        if (fields.length < 6 || dash < 0 || !fields[5].startsWith("/")) {
            return Optional.empty();
        }
        long start = Long.parseUnsignedLong(fields[0], 0, dash, 16);
        long end = Long.parseUnsignedLong(fields[0], dash + 1, fields[0].length(), 16);
        boolean inside = Long.compareUnsigned(address, start) >= 0 && Long.compareUnsigned(address, end) < 0;
        return inside ? Optional.of(fields[5]) : Optional.empty();
    }

    /** {@code dlclose(handle)}; 0 on success. */
    static int close(MemorySegment handle) {
        try {
            return (int) Libdlclose.HANDLE.invokeExact(Libdlclose.FUNCTION, handle);
        } catch (Throwable t) {
            throw Downcalls.rethrow("dlclose", t);
        }
    }

}
