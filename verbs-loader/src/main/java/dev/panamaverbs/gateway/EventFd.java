package dev.panamaverbs.gateway;

import java.lang.foreign.Arena;

/**
 * An eventfd ({@link Epoll#eventFd()}) with the call memory of one writing and one reading thread
 * preallocated, so that {@link #write} and {@link #read} allocate nothing: how the poller's tests and
 * benchmarks make a source readable and drain it.
 */
public final class EventFd implements AutoCloseable {
    private final int fd;
    private final Epoll.EventFdState writeState;
    private final Epoll.EventFdState readState;

    private EventFd(int fd, Arena arena) {
        this.fd = fd;
        this.writeState = Epoll.allocateEventFdState(arena);
        this.readState = Epoll.allocateEventFdState(arena);
    }

    /**
     * A new eventfd whose call memory {@code arena} holds (it must outlive the eventfd's use).
     *
     * @param arena the arena for the call memory
     * @return the eventfd
     * @throws IllegalStateException when the kernel refuses an eventfd
     */
    public static EventFd open(Arena arena) {
        int fd = Epoll.eventFd();
        if (fd < 0) {
            throw new IllegalStateException("eventfd: errno " + -fd);
        }
        return new EventFd(fd, arena);
    }

    /**
     * The file descriptor.
     *
     * @return the file descriptor
     */
    public int fd() {
        return fd;
    }

    /**
     * Adds {@code value} to the counter ({@link Epoll#eventFdWrite(Epoll.EventFdState, int, long)}); one
     * writing thread at a time.
     *
     * @param value what to add (not 0)
     * @return 0, or {@code -errno}
     */
    public int write(long value) {
        return Epoll.eventFdWrite(writeState, fd, value);
    }

    /**
     * Reads and resets the counter ({@link Epoll#eventFdRead(Epoll.EventFdState, int)}); one reading
     * thread at a time.
     *
     * @return the counter, 0, or {@code -errno}
     */
    public long read() {
        return Epoll.eventFdRead(readState, fd);
    }

    /** Closes the fd; the arena's owner frees the call memory. */
    @Override
    public void close() {
        Libc.close(fd);
    }
}
