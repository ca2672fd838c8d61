package dev.panamaverbs;

import dev.panamaverbs.error.Errno;
import dev.panamaverbs.error.VerbsException;
import dev.panamaverbs.loader.CallState;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * The few libc calls core needs around the file descriptors libibverbs hands out (the completion
 * channel fd, the async event fd): {@code fcntl} to make them non-blocking and {@code poll} to
 * ask whether they are readable. Linux x86-64/aarch64 values; errno is captured per call.
 */
final class Libc {
    static final int F_GETFL = 3;
    static final int F_SETFL = 4;
    static final int O_NONBLOCK = 0x800;
    static final short POLLIN = 0x1;

    /** {@code struct pollfd { int fd; short events; short revents; }}. */
    private static final long POLLFD_SIZE = 8;
    private static final long POLLFD_EVENTS = 4;
    private static final long POLLFD_REVENTS = 6;

    private static final Linker LINKER = Linker.nativeLinker();
    private static final SymbolLookup LIBC = LINKER.defaultLookup();

    /** {@code int fcntl(int fd, int cmd, ...)}: variadic, called with one int argument. */
    private static final MethodHandle FCNTL = LINKER.downcallHandle(
            LIBC.find("fcntl").orElseThrow(),
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT),
            Linker.Option.firstVariadicArg(2), CallState.CAPTURE_ERRNO);

    /** {@code int poll(struct pollfd *fds, nfds_t nfds, int timeout)}. */
    private static final MethodHandle POLL = LINKER.downcallHandle(
            LIBC.find("poll").orElseThrow(),
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT),
            CallState.CAPTURE_ERRNO);

    private Libc() {}

    /** Adds {@code O_NONBLOCK} to the file status flags of {@code fd} ({@code fcntl F_GETFL/F_SETFL}). */
    static void setNonBlocking(int fd) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = CallState.allocate(arena);
            int flags = (int) FCNTL.invokeExact(state, fd, F_GETFL, 0);
            if (flags < 0) {
                throw new VerbsException("fcntl(F_GETFL)", CallState.errno(state), "fd " + fd);
            }
            if ((flags & O_NONBLOCK) == 0) {
                int rc = (int) FCNTL.invokeExact(state, fd, F_SETFL, flags | O_NONBLOCK);
                if (rc < 0) {
                    throw new VerbsException("fcntl(F_SETFL)", CallState.errno(state), "fd " + fd);
                }
            }
        } catch (Throwable t) {
            throw NativeCalls.propagate("fcntl", t);
        }
    }

    /** True when {@code O_NONBLOCK} is set on {@code fd}. */
    static boolean isNonBlocking(int fd) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = CallState.allocate(arena);
            int flags = (int) FCNTL.invokeExact(state, fd, F_GETFL, 0);
            if (flags < 0) {
                throw new VerbsException("fcntl(F_GETFL)", CallState.errno(state), "fd " + fd);
            }
            return (flags & O_NONBLOCK) != 0;
        } catch (Throwable t) {
            throw NativeCalls.propagate("fcntl", t);
        }
    }

    /** A {@code struct pollfd} plus capture state, reusable by one thread for {@link #pollReadable}. */
    static MemorySegment allocatePollState(Arena arena) {
        return arena.allocate(POLLFD_SIZE + CallState.layout().byteSize(), 8);
    }

    /**
     * {@code poll(fd, POLLIN, timeoutMillis)}: true when {@code fd} is readable (or has an error or
     * hang-up pending, which the following read reports), false on timeout or {@code EINTR}.
     * {@code timeoutMillis} 0 never blocks. {@code pollState} comes from {@link #allocatePollState}.
     */
    static boolean pollReadable(MemorySegment pollState, int fd, int timeoutMillis) {
        MemorySegment pollfd = pollState.asSlice(0, POLLFD_SIZE);
        MemorySegment state = pollState.asSlice(POLLFD_SIZE);
        pollfd.set(JAVA_INT, 0, fd);
        pollfd.set(JAVA_SHORT, POLLFD_EVENTS, POLLIN);
        pollfd.set(JAVA_SHORT, POLLFD_REVENTS, (short) 0);
        int rc;
        try {
            rc = (int) POLL.invokeExact(state, pollfd, 1L, timeoutMillis);
        } catch (Throwable t) {
            throw NativeCalls.propagate("poll", t);
        }
        if (rc < 0) {
            int errno = CallState.errno(state);
            if (errno == Errno.EINTR) {
                return false;
            }
            throw new VerbsException("poll", errno, "fd " + fd);
        }
        return rc > 0 && pollfd.get(JAVA_SHORT, POLLFD_REVENTS) != 0;
    }
}
