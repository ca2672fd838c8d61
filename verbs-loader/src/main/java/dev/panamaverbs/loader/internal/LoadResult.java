package dev.panamaverbs.loader.internal;

import java.lang.foreign.MemorySegment;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The immutable outcome of one probe of a library file: available with every required symbol
 * resolved and the optional ones that were found, or unavailable with a cause and nothing resolved.
 * There is no half-way state: an unavailable result holds no symbol and no library handle.
 */
public final class LoadResult {
    private final String requestedLibrary;
    private final String cause;
    /** What was thrown while probing, when the cause is a throwable (null otherwise). */
    private final Throwable failure;
    private final Map<String, MemorySegment> symbols;
    /** Where a resolved symbol lies, for {@link #libraryPath()}; NULL when nothing was resolved. */
    private final MemorySegment someSymbol;
    /** {@link #libraryPath()}, found on first request: the probe itself need not read /proc. */
    private volatile String libraryPath;

    private LoadResult(String requestedLibrary, String cause, Throwable failure, Map<String, MemorySegment> symbols,
                       MemorySegment someSymbol) {
        this.requestedLibrary = requestedLibrary;
        this.cause = cause;
        this.failure = failure;
        this.symbols = Map.copyOf(symbols);
        this.someSymbol = someSymbol;
    }

    /**
     * @param requestedLibrary what was handed to {@code dlopen}
     * @param symbols          every function resolved, by name
     */
    static LoadResult available(String requestedLibrary, Map<String, MemorySegment> symbols) {
        MemorySegment someSymbol = symbols.isEmpty() ? MemorySegment.NULL : symbols.values().iterator().next();
        return new LoadResult(requestedLibrary, null, null, symbols, someSymbol);
    }

    static LoadResult unavailable(String requestedLibrary, String cause) {
        return unavailable(requestedLibrary, cause, null);
    }

    /** Unavailable because probing threw {@code failure} (kept for {@link #unavailabilityFailure()}). */
    static LoadResult unavailable(String requestedLibrary, String cause, Throwable failure) {
        return new LoadResult(requestedLibrary, cause, failure, Map.of(), MemorySegment.NULL);
    }

    /**
     * True when every required symbol resolved.
     *
     * @return true when every required symbol resolved
     */
    public boolean isAvailable() {
        return cause == null;
    }

    /**
     * Why the library is unavailable; empty when it is available.
     *
     * @return why the library is unavailable; empty when it is available
     */
    public Optional<String> unavailabilityCause() {
        return Optional.ofNullable(cause);
    }

    /**
     * What was thrown while probing, when the library is unavailable because something threw
     * (an {@code Error} from the linker, a broken generated layer); empty otherwise.
     *
     * @return the throwable behind {@link #unavailabilityCause()}, if any
     */
    public Optional<Throwable> unavailabilityFailure() {
        return Optional.ofNullable(failure);
    }

    /**
     * The file actually loaded, symbolic links resolved (for the default soname, something like
     * {@code /usr/lib/x86_64-linux-gnu/libibverbs.so.1.14.44.0}), found in {@code /proc/self/maps} at a
     * resolved symbol on the first call. When unavailable, or if no mapping could be read, the name handed to
     * {@code dlopen} ({@link #requestedLibrary()}).
     *
     * @return the file actually loaded, symbolic links resolved (for the default soname, something like {@code /usr/lib/x86_64-linux-gnu/libibverbs.so.1.14.44.0}), found in {@code /proc/self/maps} at a resolved symbol
     */
    public String libraryPath() {
        String path = libraryPath;
        if (path == null) {
            // Racing callers compute the same answer; the mapping cannot change while the handle is open.
            path = someSymbol.equals(MemorySegment.NULL) ? requestedLibrary
                    : Dlfcn.fileContaining(someSymbol).orElse(requestedLibrary);
            libraryPath = path;
        }
        return path;
    }

    /**
     * The file name or path handed to {@code dlopen} (a soname such as {@code libibverbs.so.1}, or a path).
     *
     * @return the file name or path handed to {@code dlopen} (a soname such as {@code libibverbs.so.1}, or a path)
     */
    public String requestedLibrary() {
        return requestedLibrary;
    }

    /**
     * Whether the function {@code name} (required or optional) was resolved; false when unavailable.
     *
     * @param name the name
     * @return whether the function {@code name} (required or optional) was resolved
     */
    public boolean has(String name) {
        return symbols.containsKey(name);
    }

    /**
     * Names of every symbol resolved (required and optional); empty when unavailable.
     *
     * @return the names of every symbol resolved (required and optional); empty when unavailable
     */
    public Set<String> resolvedSymbols() {
        return symbols.keySet();
    }

    /** Every resolved function's address by name, for binding the generated invokers. */
    Map<String, MemorySegment> addresses() {
        return symbols;
    }

    @Override
    public String toString() {
        return isAvailable()
                ? "available from " + libraryPath()
                        + (libraryPath().equals(requestedLibrary) ? "" : " (dlopen(\"" + requestedLibrary + "\"))")
                        + ", " + symbols.size() + " functions resolved"
                : "unavailable: " + cause;
    }
}
