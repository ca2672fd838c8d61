package dev.panamaverbs.loader;

import java.lang.foreign.MemorySegment;
import java.util.Collection;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.Collections;

/**
 * The immutable outcome of one probe of a libibverbs file: available with every required symbol
 * resolved and the optional capabilities found, or unavailable with a cause and nothing resolved.
 * There is no half-way state: an unavailable result holds no symbol and no library handle.
 */
public final class LoadResult {
    private final String libraryPath;
    private final String cause;
    private final Map<String, MemorySegment> symbols;
    private final Set<Capability> capabilities;

    private LoadResult(String libraryPath, String cause, Map<String, MemorySegment> symbols,
                       Collection<Capability> capabilities) {
        this.libraryPath = libraryPath;
        this.cause = cause;
        this.symbols = Map.copyOf(symbols);
        EnumSet<Capability> set = EnumSet.noneOf(Capability.class);
        set.addAll(capabilities);
        this.capabilities = Collections.unmodifiableSet(set);
    }

    static LoadResult available(String libraryPath, Map<String, MemorySegment> symbols,
                                Collection<Capability> capabilities) {
        return new LoadResult(libraryPath, null, symbols, capabilities);
    }

    static LoadResult unavailable(String libraryPath, String cause) {
        return new LoadResult(libraryPath, cause, Map.of(), Set.of());
    }

    /** True when every required symbol resolved. */
    public boolean isAvailable() {
        return cause == null;
    }

    /** Why the library is unavailable; empty when it is available. */
    public Optional<String> unavailabilityCause() {
        return Optional.ofNullable(cause);
    }

    /** The file name or path handed to {@code dlopen}. */
    public String libraryPath() {
        return libraryPath;
    }

    /** The optional capabilities found; empty when unavailable. */
    public Set<Capability> capabilities() {
        return capabilities;
    }

    /** Whether {@code capability} was found. */
    public boolean has(Capability capability) {
        return capabilities.contains(capability);
    }

    /** Names of every symbol resolved (required and optional); empty when unavailable. */
    public Set<String> resolvedSymbols() {
        return symbols.keySet();
    }

    /** The resolved address of {@code name}, if it was resolved. */
    Optional<MemorySegment> address(String name) {
        return Optional.ofNullable(symbols.get(name));
    }

    @Override
    public String toString() {
        return isAvailable()
                ? "libibverbs available from " + libraryPath + ", capabilities " + capabilities
                : "libibverbs unavailable: " + cause;
    }
}
