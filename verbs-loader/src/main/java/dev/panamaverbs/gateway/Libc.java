package dev.panamaverbs.gateway;

import dev.panamaverbs.ffm.invoke.CallState;
import dev.panamaverbs.ffm.invoke.Downcalls;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * The few libc calls the API needs around the file descriptors libibverbs hands out (the
 * completion channel fd, the async event fd): {@code fcntl} to make them non-blocking and
 * {@code poll} to ask whether they are readable, so that waits park in Java instead of blocking
 * a carrier thread in C. C's conventions: results, or a negated errno. Linux x86-64/aarch64 values.
 */
public final class Libc {
    static final int F_GETFL = 3;
    static final int F_SETFL = 4;
    /** {@code O_NONBLOCK}. */
    public static final int O_NONBLOCK = 0x800;
    static final short POLLIN = 0x1;
    /** {@code EINTR}: a poll interrupted by a signal, reported as "not readable yet". */
    static final int EINTR = 4;

    /** {@code struct pollfd { int fd; short events; short revents; }}. */
    private static final long POLLFD_SIZE = 8;
    private static final long POLLFD_EVENTS = 4;
    private static final long POLLFD_REVENTS = 6;

    private Libc() {}

    private static final class Functions {
        static final MemorySegment FCNTL = Downcalls.libc("fcntl");
        static final MemorySegment POLL = Downcalls.libc("poll");
        static final MemorySegment CLOSE = Downcalls.libc("close");
        /** {@code int close(int fd)}. */
        static final MethodHandle CLOSE_CALL = Downcalls.handle(FunctionDescriptor.of(JAVA_INT, JAVA_INT),
                Downcalls.CAPTURE_ERRNO);
        /** {@code int fcntl(int fd, int cmd, ...)}: variadic, called with one int argument. */
        static final MethodHandle FCNTL_CALL = Downcalls.handle(FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT),
                Linker.Option.firstVariadicArg(2), Downcalls.CAPTURE_ERRNO);
        /** {@code int poll(struct pollfd *fds, nfds_t nfds, int timeout)}. */
        static final MethodHandle POLL_CALL = Downcalls.handle(FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT),
                Downcalls.CAPTURE_ERRNO);
    }

    /**
     * {@code fcntl(fd, F_GETFL)}: the file status flags, or {@code -errno}.
     *
     * @param fd the file descriptor
     * @return {@code fcntl(fd, F_GETFL)}: the file status flags, or {@code -errno}
     */
    public static int statusFlags(int fd) {
        return fcntlOrMinusErrno(fd, F_GETFL);
    }

    /**
     * Adds {@code O_NONBLOCK} to the status flags of {@code fd}: 0, or the errno of the failing fcntl.
     *
     * @param fd the file descriptor
     * @return 0, or the errno of the failing fcntl
     */
    public static int setNonBlocking(int fd) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = CallState.allocate(arena);
            int flags = fcntl(state, fd, F_GETFL, 0);
            if (flags < 0) {
                return CallState.errno(state);
            }
            if ((flags & O_NONBLOCK) == 0 && fcntl(state, fd, F_SETFL, flags | O_NONBLOCK) < 0) {
                return CallState.errno(state);
            }
            return 0;
        }
    }

    /** {@code F_DUPFD_CLOEXEC}. */
    static final int F_DUPFD_CLOEXEC = 1030;

    /**
     * {@code fcntl(fd, F_DUPFD_CLOEXEC, 0)}: a new close-on-exec descriptor of the same open file
     * (what {@code ibv_import_device} wants for a command fd the caller keeps), or {@code -errno}.
     *
     * @param fd the file descriptor
     * @return the new descriptor, or {@code -errno}
     */
    public static int duplicate(int fd) {
        return fcntlOrMinusErrno(fd, F_DUPFD_CLOEXEC);
    }

    /** {@code fcntl(fd, cmd, 0)}: its result, or {@code -errno} where it fails. */
    private static int fcntlOrMinusErrno(int fd, int cmd) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = CallState.allocate(arena);
            int result = fcntl(state, fd, cmd, 0);
            return result < 0 ? -CallState.errno(state) : result;
        }
    }

    /**
     * {@code close(fd)}: 0, or the errno.
     *
     * @param fd the file descriptor
     * @return 0, or the errno
     */
    public static int close(int fd) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = CallState.allocate(arena);
            int rc = (int) Functions.CLOSE_CALL.invokeExact(Functions.CLOSE, state, fd);
            return rc < 0 ? CallState.errno(state) : 0;
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw Downcalls.rethrow("close", t);
        }
    }

    private static int fcntl(MemorySegment state, int fd, int command, int argument) {
        try {
            return (int) Functions.FCNTL_CALL.invokeExact(Functions.FCNTL, state, fd, command, argument);
        } catch (Throwable t) {
            throw Downcalls.rethrow("fcntl", t);
        }
    }

    /**
     * A {@code struct pollfd} plus capture state, reusable by one thread for {@link #pollReadable}.
     *
     * @param arena the arena that owns the allocated memory
     * @return a {@code struct pollfd} plus capture state, reusable by one thread for {@link #pollReadable}
     */
    public static MemorySegment allocatePollState(Arena arena) {
        return arena.allocate(POLLFD_SIZE + CallState.layout().byteSize(), 8);
    }

    /**
     * {@code poll(fd, POLLIN, timeoutMillis)}: 1 when {@code fd} is readable (or has an error or
     * hang-up pending, which the following read reports), 0 on timeout or {@code EINTR}, else
     * {@code -errno}. {@code timeoutMillis} 0 never blocks. {@code pollState} comes from
     * {@link #allocatePollState}.
     *
     * @param pollState the poll state
     * @param fd the file descriptor
     * @param timeoutMillis how long to wait at most, in milliseconds
     * @return {@code poll(fd, POLLIN, timeoutMillis)}: 1 when {@code fd} is readable (or has an error or hang-up pending, which the following read reports), 0 on timeout or {@code EINTR}, else {@code -errno}
     */
    public static int pollReadable(MemorySegment pollState, int fd, int timeoutMillis) {
        MemorySegment pollfd = pollState.asSlice(0, POLLFD_SIZE);
        MemorySegment state = pollState.asSlice(POLLFD_SIZE);
        pollfd.set(JAVA_INT, 0, fd);
        pollfd.set(JAVA_SHORT, POLLFD_EVENTS, POLLIN);
        pollfd.set(JAVA_SHORT, POLLFD_REVENTS, (short) 0);
        int rc;
        try {
            rc = (int) Functions.POLL_CALL.invokeExact(Functions.POLL, state, pollfd, 1L, timeoutMillis);
        } catch (Throwable t) {
            throw Downcalls.rethrow("poll", t);
        }
        if (rc < 0) {
            int errno = CallState.errno(state);
            return errno == EINTR ? 0 : -errno;
        }
        return rc > 0 && pollfd.get(JAVA_SHORT, POLLFD_REVENTS) != 0 ? 1 : 0;
    }
}
