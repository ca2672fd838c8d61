package dev.panamaverbs;

import dev.panamaverbs.loader.internal.Libc;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * The file descriptors libibverbs hands out (a completion channel's, a context's async fd), made
 * non-blocking and polled with a timeout, so that waits park in Java and can be interrupted or
 * closed instead of blocking a thread in C. Failures become {@link VerbsException}s naming the fd.
 */
final class EventFiles {
    private EventFiles() {}

    /** Adds {@code O_NONBLOCK} to {@code fd}'s status flags ({@code fcntl F_GETFL/F_SETFL}). */
    static void setNonBlocking(int fd) {
        int errno = Libc.setNonBlocking(fd);
        if (errno != 0) {
            throw new VerbsException("fcntl", errno, "fd " + fd);
        }
    }

    /** True when {@code O_NONBLOCK} is set on {@code fd}. */
    static boolean isNonBlocking(int fd) {
        int flags = Libc.statusFlags(fd);
        if (flags < 0) {
            throw new VerbsException("fcntl(F_GETFL)", -flags, "fd " + fd);
        }
        return (flags & Libc.O_NONBLOCK) != 0;
    }

    /** Room for one {@link #pollReadable} call at a time; reusable by one thread. */
    static MemorySegment allocatePollState(Arena arena) {
        return Libc.allocatePollState(arena);
    }

    /** {@code poll(fd, POLLIN, timeoutMillis)}: true when readable; false on timeout or EINTR. */
    static boolean pollReadable(MemorySegment pollState, int fd, int timeoutMillis) {
        int rc = Libc.pollReadable(pollState, fd, timeoutMillis);
        if (rc < 0) {
            throw new VerbsException("poll", -rc, "fd " + fd);
        }
        return rc > 0;
    }
}
