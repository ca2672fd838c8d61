package dev.panamaverbs.loader.internal;

import dev.panamaverbs.ffm.invoke.NativeLibrary;
import org.slf4j.LoggerFactory;

import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * One shared library as the process uses it: probed once, lazily and thread-safely, on first use,
 * from what its configuration names ({@link LibraryProbe#probeConfigured}); the answer never
 * changes afterwards. When available, the generated invokers ({@link NativeLibrary}) are bound to
 * the addresses resolved before anyone can see the answer: a caller told "available" can call
 * them at once. Nothing runs in a static initialiser: a failed load is an answer, not an
 * {@link ExceptionInInitializerError}. The probe logs nothing when the library loads; the API
 * announces it at first use ({@link #announceLoaded()}).
 */
public final class ProcessLibrary {
    private final Class<?> owner;
    private final String name;
    private final Supplier<String> configuredFile;
    private final NativeLibrary functions;
    private final Object lock = new Object();
    private volatile LoadResult result;
    private final AtomicBoolean announced = new AtomicBoolean();

    /**
     * @param owner          the class whose logger reports loading (users configure it by that name)
     * @param name           what log lines call it, e.g. {@code libibverbs}
     * @param configuredFile the file or soname the configuration names, read at the first use
     * @param functions      the generated functions to resolve and bind
     */
    ProcessLibrary(Class<?> owner, String name, Supplier<String> configuredFile, NativeLibrary functions) {
        this.owner = owner;
        this.name = name;
        this.configuredFile = configuredFile;
        this.functions = functions;
    }

    /** The probe result, probing (and binding the invokers) on the first call. */
    LoadResult result() {
        LoadResult current = result;
        if (current == null) {
            synchronized (lock) {
                current = result;
                if (current == null) {
                    current = LibraryProbe.probeConfigured(configuredFile.get(), functions);
                    if (current.isAvailable()) {
                        functions.bind(current.addresses());
                    } else {
                        // The cause is the caller's to report (unavailabilityCause): a library turned
                        // off or absent on purpose is no warning.
                        LoggerFactory.getLogger(owner).debug("{} unavailable: {}", name, current.unavailabilityCause().orElseThrow());
                    }
                    result = current;
                }
            }
        }
        return current;
    }

    /**
     * Logs, once per process, the INFO line {@code "<name> loaded from <file>"}. The API calls it
     * when the library is first put to use (a device context or an event channel created), not at
     * the probe: {@link #isAvailable()} is often an application's first call, and the first log line
     * starts the logging framework (about 30 ms in a cold JVM) and reads {@code /proc/self/maps}
     * for the file's name. Does nothing when the library is unavailable.
     */
    public void announceLoaded() {
        if (isAvailable() && announced.compareAndSet(false, true)) {
            LoggerFactory.getLogger(owner).info("{} loaded from {}", name, libraryPath());
        }
    }

    /**
     * Whether the library was opened and every required symbol resolved.
     *
     * @return true when available
     */
    public boolean isAvailable() {
        return result().isAvailable();
    }

    /**
     * Why the library is unavailable: the file tried and dlerror's text, the missing symbols with
     * their versions, native access denied (with the option to add), or turned off.
     *
     * @return the cause, empty when available
     */
    public Optional<String> unavailabilityCause() {
        return result().unavailabilityCause();
    }

    /**
     * What was thrown while probing, when that is why the library is unavailable.
     *
     * @return the throwable, if any
     */
    public Optional<Throwable> unavailabilityFailure() {
        return result().unavailabilityFailure();
    }

    /**
     * The file actually loaded, symbolic links resolved; when unavailable, the name that was (or
     * would have been) handed to {@code dlopen}. See {@link LoadResult#libraryPath()}.
     *
     * @return the library's path
     */
    public String libraryPath() {
        return result().libraryPath();
    }

    /**
     * The soname or path handed to {@code dlopen}.
     *
     * @return what the configuration named
     */
    public String requestedLibrary() {
        return result().requestedLibrary();
    }

    /**
     * Whether the exported function {@code function} was resolved.
     *
     * @param function the C name
     * @return false when it was not, or the library is unavailable
     */
    public boolean has(String function) {
        return result().has(function);
    }
}
