package dev.panamaverbs.gateway;

import dev.panamaverbs.ffm.invoke.CallState;
import dev.panamaverbs.ffm.invoke.Downcalls;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.util.Locale;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;

/**
 * {@code epoll(7)} and {@code eventfd(2)}: what the core's poller waits with, one platform thread
 * blocked in {@code epoll_wait} on every event fd libibverbs and librdmacm hand out, woken through
 * an eventfd. Bound by hand like {@link Libc} (libc is no header the generator reads), with the
 * same handle factory. C's conventions: a result, or a negated errno. Linux x86-64/aarch64 values.
 *
 * <p>The calls of the poller's cycle ({@code epoll_wait}, {@code epoll_ctl}, the eventfd's
 * {@code read} and {@code write}) go first through a handle that captures no errno: capturing
 * costs a 40-byte segment per call (the JDK slices the capture segment, {@code
 * SharedUtils.checkCaptureSegment}) wherever C2 has not compiled the caller, that is under
 * {@code -Xint} and C1. Only a failed call is made again, with the capture, to learn its errno:
 * reading errno after a plain downcall is unsafe, the JVM may overwrite it between two downcalls.
 * Calling again is sound for these calls: a failed one changed nothing (no event taken, no count
 * read or added, no registration changed), and {@code epoll_wait} is repeated with timeout 0.
 */
public final class Epoll {
    /** {@code EPOLL_CTL_ADD}. */
    public static final int CTL_ADD = 1;
    /** {@code EPOLL_CTL_DEL}. */
    public static final int CTL_DEL = 2;
    /** {@code EPOLL_CTL_MOD}. */
    public static final int CTL_MOD = 3;
    /** {@code EPOLLIN}: readable. */
    public static final int EPOLLIN = 0x1;
    /** {@code EPOLLERR}: always reported. */
    public static final int EPOLLERR = 0x8;
    /** {@code EPOLLHUP}: always reported. */
    public static final int EPOLLHUP = 0x10;
    /** {@code EPOLLONESHOT}: the fd is disarmed after one report until {@code EPOLL_CTL_MOD} re-arms it. */
    public static final int EPOLLONESHOT = 1 << 30;
    /** {@code EPOLL_CLOEXEC} (= {@code O_CLOEXEC}). */
    static final int EPOLL_CLOEXEC = 0x80000;
    /** {@code EFD_CLOEXEC}. */
    static final int EFD_CLOEXEC = 0x80000;
    /** {@code EFD_NONBLOCK} (= {@code O_NONBLOCK}). */
    static final int EFD_NONBLOCK = Libc.O_NONBLOCK;
    /** {@code EAGAIN}. */
    static final int EAGAIN = 11;

    /**
     * {@code struct epoll_event { uint32_t events; epoll_data_t data; }}. glibc declares it
     * {@code __attribute__((packed))} on x86-64 only: 12 bytes there, the 8-byte data at offset 4;
     * elsewhere (aarch64) the data is aligned at 8 and the struct is 16 bytes.
     */
    public static final StructLayout EPOLL_EVENT = isX86_64(System.getProperty("os.arch"))
            ? MemoryLayout.structLayout(JAVA_INT.withName("events"), JAVA_LONG_UNALIGNED.withName("data"))
                    .withName("epoll_event")
            : MemoryLayout.structLayout(JAVA_INT.withName("events"), MemoryLayout.paddingLayout(4),
                    JAVA_LONG.withName("data")).withName("epoll_event");
    private static final long EVENTS_OFFSET = EPOLL_EVENT.byteOffset(MemoryLayout.PathElement.groupElement("events"));
    private static final long DATA_OFFSET = EPOLL_EVENT.byteOffset(MemoryLayout.PathElement.groupElement("data"));

    private Epoll() {}

    /** Whether {@code os.arch} names x86-64, where {@code struct epoll_event} is packed. */
    static boolean isX86_64(String arch) {
        String a = arch == null ? "" : arch.toLowerCase(Locale.ROOT);
        return a.equals("amd64") || a.equals("x86_64");
    }

    private static final class Functions {
        static final MemorySegment EPOLL_CREATE1 = Downcalls.libc("epoll_create1");
        static final MemorySegment EPOLL_CTL = Downcalls.libc("epoll_ctl");
        static final MemorySegment EPOLL_WAIT = Downcalls.libc("epoll_wait");
        static final MemorySegment EVENTFD = Downcalls.libc("eventfd");
        static final MemorySegment READ = Downcalls.libc("read");
        static final MemorySegment WRITE = Downcalls.libc("write");
        /** {@code int epoll_create1(int flags)}. */
        static final MethodHandle EPOLL_CREATE1_CALL = Downcalls.handle(FunctionDescriptor.of(JAVA_INT, JAVA_INT),
                Downcalls.CAPTURE_ERRNO);
        /** {@code int epoll_ctl(int epfd, int op, int fd, struct epoll_event *event)}. */
        static final MethodHandle EPOLL_CTL_CALL = Downcalls.handle(
                FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS), Downcalls.CAPTURE_ERRNO);
        /** {@code int epoll_wait(int epfd, struct epoll_event *events, int maxevents, int timeout)}. */
        static final MethodHandle EPOLL_WAIT_CALL = Downcalls.handle(
                FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT), Downcalls.CAPTURE_ERRNO);
        /** {@link #EPOLL_CTL_CALL} without the errno capture: the first try (see the class comment). */
        static final MethodHandle EPOLL_CTL_FIRST = Downcalls.handle(
                FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS));
        /** {@link #EPOLL_WAIT_CALL} without the errno capture: the first try. */
        static final MethodHandle EPOLL_WAIT_FIRST = Downcalls.handle(
                FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT));
        /** {@link #READ_WRITE_CALL} without the errno capture: the first try. */
        static final MethodHandle READ_WRITE_FIRST = Downcalls.handle(FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG));
        /** {@code int eventfd(unsigned int initval, int flags)}. */
        static final MethodHandle EVENTFD_CALL = Downcalls.handle(FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT),
                Downcalls.CAPTURE_ERRNO);
        /** {@code ssize_t read(int fd, void *buf, size_t count)} and {@code write} (same shape). */
        static final MethodHandle READ_WRITE_CALL = Downcalls.handle(
                FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG), Downcalls.CAPTURE_ERRNO);
    }

    /**
     * {@code epoll_create1(EPOLL_CLOEXEC)}: a new epoll fd, or {@code -errno}.
     *
     * @return the epoll fd, or {@code -errno}
     */
    public static int create() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = CallState.allocate(arena);
            int fd = (int) Functions.EPOLL_CREATE1_CALL.invokeExact(Functions.EPOLL_CREATE1, state, EPOLL_CLOEXEC);
            return fd < 0 ? -CallState.errno(state) : fd;
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw Downcalls.rethrow("epoll_create1", t);
        }
    }

    /**
     * {@code epoll_ctl(epfd, op, fd, &{events, data})}: 0, or {@code -errno}. Allocates its call
     * state per call; a path that runs often keeps one from {@link #allocateControlState} instead.
     *
     * @param epfd the epoll fd
     * @param op {@link #CTL_ADD}, {@link #CTL_MOD} or {@link #CTL_DEL}
     * @param fd the fd watched
     * @param events the event mask ({@link #EPOLLIN}, {@link #EPOLLONESHOT}, ...)
     * @param data the 64-bit value {@link #epollWait} reports with the fd's events
     * @return 0, or {@code -errno}
     */
    public static int control(int epfd, int op, int fd, int events, long data) {
        try (Arena arena = Arena.ofConfined()) {
            return control(allocateControlState(arena), epfd, op, fd, events, data);
        }
    }

    /**
     * Room for one {@link #control(ControlState, int, int, int, int, long)} call at a time: a
     * {@code struct epoll_event} and the errno capture state. Not for two threads at once.
     *
     * @param arena the arena that owns the memory
     * @return the memory
     */
    public static ControlState allocateControlState(Arena arena) {
        return new ControlState(CallState.allocate(arena), arena.allocate(EPOLL_EVENT));
    }

    /**
     * The memory of one {@code epoll_ctl} call: the errno capture state and the
     * {@code struct epoll_event} passed to it. Sliced once, so a call through it allocates nothing.
     *
     * @param callState the errno capture state
     * @param event the {@code struct epoll_event}
     */
    public record ControlState(MemorySegment callState, MemorySegment event) {}

    /**
     * The memory of one eventfd {@code read} or {@code write}: the errno capture state and the
     * 8-byte counter.
     *
     * @param callState the errno capture state
     * @param counter the 8-byte buffer
     */
    public record EventFdState(MemorySegment callState, MemorySegment counter) {}

    /**
     * {@link #control(int, int, int, int, long)} through preallocated memory, allocating
     * nothing (the poller's arm path). One call at a time per {@code controlState}.
     *
     * @param controlState from {@link #allocateControlState}
     * @param epfd the epoll fd
     * @param op {@link #CTL_ADD}, {@link #CTL_MOD} or {@link #CTL_DEL}
     * @param fd the fd watched
     * @param events the event mask
     * @param data the 64-bit value {@link #epollWait} reports with the fd's events
     * @return 0, or {@code -errno}
     */
    public static int control(ControlState controlState, int epfd, int op, int fd, int events, long data) {
        MemorySegment event = controlState.event();
        MemorySegment state = controlState.callState();
        event.set(JAVA_INT, EVENTS_OFFSET, events);
        event.set(JAVA_LONG_UNALIGNED, DATA_OFFSET, data);
        int rc;
        try {
            rc = (int) Functions.EPOLL_CTL_FIRST.invokeExact(Functions.EPOLL_CTL, epfd, op, fd, event);
            if (rc < 0) {
                rc = (int) Functions.EPOLL_CTL_CALL.invokeExact(Functions.EPOLL_CTL, state, epfd, op, fd, event);
            }
        } catch (Throwable t) {
            throw Downcalls.rethrow("epoll_ctl", t);
        }
        return rc < 0 ? -CallState.errno(state) : 0;
    }

    /**
     * Room for {@code maxEvents} {@code struct epoll_event}s and the capture state, reused by the
     * one thread that calls {@link #epollWait} with it.
     *
     * @param arena the arena that owns the memory
     * @param maxEvents how many events one {@code epoll_wait} may return
     * @return the memory
     */
    public static WaitState allocateWaitState(Arena arena, int maxEvents) {
        return new WaitState(arena.allocate(EPOLL_EVENT.byteSize() * maxEvents, 8), CallState.allocate(arena), maxEvents);
    }

    /**
     * The memory of one thread's {@code epoll_wait} calls: the events array and the errno capture
     * state, sliced once, so a wait allocates nothing (a slice per call stayed an allocation below
     * C2, whose escape analysis alone removed it).
     *
     * @param events room for {@code maxEvents} {@code struct epoll_event}s
     * @param callState the errno capture state
     * @param maxEvents how many events one {@code epoll_wait} may return
     */
    public record WaitState(MemorySegment events, MemorySegment callState, int maxEvents) {}

    /**
     * {@code epoll_wait(epfd, events, maxEvents, timeoutMillis)}: how many events were written,
     * 0 on timeout or {@code EINTR}, else {@code -errno}. Blocks the calling (platform) thread.
     *
     * @param waitState from {@link #allocateWaitState}
     * @param epfd the epoll fd
     * @param timeoutMillis -1 for no limit
     * @return the number of events, 0, or {@code -errno}
     */
    public static int epollWait(WaitState waitState, int epfd, int timeoutMillis) {
        MemorySegment state = waitState.callState();
        int rc;
        try {
            rc = (int) Functions.EPOLL_WAIT_FIRST.invokeExact(Functions.EPOLL_WAIT, epfd, waitState.events(),
                    waitState.maxEvents(), timeoutMillis);
            if (rc < 0) {
                rc = (int) Functions.EPOLL_WAIT_CALL.invokeExact(Functions.EPOLL_WAIT, state, epfd, waitState.events(),
                        waitState.maxEvents(), 0);
            }
        } catch (Throwable t) {
            throw Downcalls.rethrow("epoll_wait", t);
        }
        if (rc < 0) {
            int errno = CallState.errno(state);
            return errno == Libc.EINTR ? 0 : -errno;
        }
        return rc;
    }

    /**
     * The event mask of the {@code index}th event {@link #epollWait} wrote.
     *
     * @param waitState the memory passed to {@link #epollWait}
     * @param index the event's index
     * @return its {@code events}
     */
    public static int eventMask(WaitState waitState, int index) {
        return waitState.events().get(JAVA_INT, EPOLL_EVENT.byteSize() * index + EVENTS_OFFSET);
    }

    /**
     * The data of the {@code index}th event {@link #epollWait} wrote.
     *
     * @param waitState the memory passed to {@link #epollWait}
     * @param index the event's index
     * @return its {@code data.u64}
     */
    public static long eventData(WaitState waitState, int index) {
        return waitState.events().get(JAVA_LONG_UNALIGNED, EPOLL_EVENT.byteSize() * index + DATA_OFFSET);
    }

    /**
     * {@code eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)}: a new eventfd, or {@code -errno}.
     *
     * @return the eventfd, or {@code -errno}
     */
    public static int eventFd() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = CallState.allocate(arena);
            int fd = (int) Functions.EVENTFD_CALL.invokeExact(Functions.EVENTFD, state, 0, EFD_CLOEXEC | EFD_NONBLOCK);
            return fd < 0 ? -CallState.errno(state) : fd;
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw Downcalls.rethrow("eventfd", t);
        }
    }

    /**
     * Room for one {@link #eventFdWrite(EventFdState, int, long)} or
     * {@link #eventFdRead(EventFdState, int)} call at a time: the 8-byte counter and the errno
     * capture state. Not for two threads at once.
     *
     * @param arena the arena that owns the memory
     * @return the memory
     */
    public static EventFdState allocateEventFdState(Arena arena) {
        return new EventFdState(CallState.allocate(arena), arena.allocate(JAVA_LONG));
    }

    /**
     * Adds {@code value} to an eventfd's counter ({@code write} of 8 bytes): 0, or {@code -errno}.
     *
     * @param fd the eventfd
     * @param value what to add (not 0)
     * @return 0, or {@code -errno}
     */
    public static int eventFdWrite(int fd, long value) {
        try (Arena arena = Arena.ofConfined()) {
            return eventFdWrite(allocateEventFdState(arena), fd, value);
        }
    }

    /**
     * {@link #eventFdWrite(int, long)} through preallocated memory, allocating nothing.
     *
     * @param eventFdState from {@link #allocateEventFdState}
     * @param fd the eventfd
     * @param value what to add (not 0)
     * @return 0, or {@code -errno}
     */
    public static int eventFdWrite(EventFdState eventFdState, int fd, long value) {
        eventFdState.counter().set(JAVA_LONG, 0, value);
        return transferCounter(Functions.WRITE, "write", eventFdState, fd) < 0 ? -CallState.errno(eventFdState.callState()) : 0;
    }

    /**
     * {@code read} or {@code write} of the 8-byte counter: without the errno capture, then once
     * more with it if that failed (the class comment says why); {@return what the last call returned}
     */
    private static long transferCounter(MemorySegment function, String verb, EventFdState eventFdState, int fd) {
        MemorySegment counter = eventFdState.counter();
        try {
            long rc = (long) Functions.READ_WRITE_FIRST.invokeExact(function, fd, counter, 8L);
            return rc >= 0 ? rc : (long) Functions.READ_WRITE_CALL.invokeExact(function, eventFdState.callState(), fd, counter, 8L);
        } catch (Throwable t) {
            throw Downcalls.rethrow(verb, t);
        }
    }

    /**
     * Reads and resets a non-blocking eventfd's counter ({@code read} of 8 bytes): the counter,
     * 0 when it was 0 ({@code EAGAIN}), or {@code -errno}.
     *
     * @param fd the eventfd
     * @return the counter, 0, or {@code -errno}
     */
    public static long eventFdRead(int fd) {
        try (Arena arena = Arena.ofConfined()) {
            return eventFdRead(allocateEventFdState(arena), fd);
        }
    }

    /**
     * {@link #eventFdRead(int)} through preallocated memory, allocating nothing.
     *
     * @param eventFdState from {@link #allocateEventFdState}
     * @param fd the eventfd
     * @return the counter, 0, or {@code -errno}
     */
    public static long eventFdRead(EventFdState eventFdState, int fd) {
        if (transferCounter(Functions.READ, "read", eventFdState, fd) < 0) {
            int errno = CallState.errno(eventFdState.callState());
            return errno == EAGAIN ? 0 : -errno;
        }
        return eventFdState.counter().get(JAVA_LONG, 0);
    }
}
