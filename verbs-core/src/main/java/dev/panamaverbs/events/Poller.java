package dev.panamaverbs.events;

import dev.panamaverbs.VerbsException;

import dev.panamaverbs.gateway.Epoll;
import dev.panamaverbs.gateway.Libc;
import dev.panamaverbs.jfr.FlightEvents;
import java.lang.foreign.Arena;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.locks.StampedLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One {@code epoll} instance and the platform daemon thread(s) blocked in {@code epoll_wait} on
 * every registered fd, plus an eventfd of its own that wakes them for shutdown. Each registered
 * fd is a {@link PollSource}; when it becomes readable the poller dispatches to everything
 * waiting on it: it unparks the waiting threads (virtual or platform), completes the source's
 * futures and runs its handler.
 *
 * <h2>Level-triggered, one-shot</h2>
 * Sources are watched with {@code EPOLLIN | EPOLLONESHOT}, level-triggered: a report disarms the
 * fd, and whoever consumes the events (a waiter after it read them, the poller after the handler
 * returned) re-arms it with {@code EPOLL_CTL_MOD}. Why:
 * <ul>
 *   <li>level-triggered, arming an fd that is already readable reports it at once, so a waiter
 *       that found nothing, then armed, cannot miss an event that came in between (the
 *       check-then-arm race is closed by the kernel, not by us);</li>
 *   <li>one-shot, an fd nobody has consumed yet is not reported again and again (no busy loop of
 *       the poller thread while a woken virtual thread waits for a carrier), and with several
 *       poller threads only one of them handles an fd at a time;</li>
 *   <li>edge-triggered would need every consumer to drain the fd to {@code EAGAIN} before it may
 *       sleep again, which the verbs' event readers (one event per call) do not promise.</li>
 * </ul>
 *
 * <h2>Closing</h2>
 * {@link #close()} (and {@link PollSource#close()}) ends every wait with a
 * {@link PollerClosedException} naming what was closed, completes the futures exceptionally
 * with it, and never leaves a thread parked. A closed poller accepts no registration.
 *
 * <h2>The shared poller</h2>
 * {@link #shared()} starts one poller lazily for the whole JVM; the completion channels, rdma_cm
 * event channels and async-event readers wait through it. Setting the system property
 * {@value #ENABLED_PROPERTY} to {@code false} opts out: those waits then poll their fd as before
 * ({@code poll(2)}, a back-off park on virtual threads). The property is read at each wait.
 */
public final class Poller implements AutoCloseable {
    /** System property: {@code false} keeps the library's waits off the shared poller. */
    public static final String ENABLED_PROPERTY = "panamaverbs.poller";
    /** Name of the shared poller's thread(s). */
    static final String SHARED_NAME = "panamaverbs-poller";
    /** How many events one {@code epoll_wait} takes. */
    private static final int MAX_EVENTS = 64;
    /** The data under which the wake-up eventfd is registered; no source's token is 0 ({@link SourceTable}). */
    private static final long WAKE_TOKEN = 0;
    private static final long JOIN_MILLIS = 2_000;
    /** {@code EBADF}: what a control call on a closed poller returns. */
    private static final int EBADF = 9;
    private static final Logger LOG = LoggerFactory.getLogger(Poller.class);

    private static final Object SHARED_LOCK = new Object();
    private static Poller shared;

    private final String name;
    private final int epollFd;
    private final int wakeFd;
    private final SourceTable sources = new SourceTable();
    /**
     * Read-held around every {@code epoll_ctl}; write-held to close the fds, so no call sees a
     * reused number. A {@code StampedLock}: its read lock allocates nothing, where a
     * {@code ReentrantReadWriteLock}'s second concurrent reader allocates its hold count.
     */
    private final StampedLock fdLock = new StampedLock();
    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean closed;

    private Poller(String name, int epollFd, int wakeFd) {
        this.name = name;
        this.epollFd = epollFd;
        this.wakeFd = wakeFd;
    }

    /**
     * Starts a poller with one thread ({@code epoll_create1}, {@code eventfd}).
     *
     * @param name names the poller and its thread
     * @return the running poller
     * @throws VerbsException naming {@code epoll_create1}, {@code eventfd} or {@code epoll_ctl} when one fails
     */
    public static Poller start(String name) {
        return start(name, 1);
    }

    /**
     * Starts a poller with {@code threadCount} platform daemon threads in {@code epoll_wait} on
     * the same epoll fd (one-shot arming hands each report to one of them).
     *
     * @param name names the poller and its threads
     * @param threadCount how many threads, at least 1
     * @return the running poller
     * @throws IllegalArgumentException if {@code threadCount} is below 1
     * @throws VerbsException naming {@code epoll_create1}, {@code eventfd} or {@code epoll_ctl} when one fails
     */
    public static Poller start(String name, int threadCount) {
        Objects.requireNonNull(name, "name");
        if (threadCount < 1) {
            throw new IllegalArgumentException("Poller: threadCount must be at least 1, got " + threadCount);
        }
        int epollFd = Epoll.create();
        if (epollFd < 0) {
            throw new VerbsException("epoll_create1", -epollFd, name);
        }
        int wakeFd = Epoll.eventFd();
        if (wakeFd < 0) {
            Libc.close(epollFd);
            throw new VerbsException("eventfd", -wakeFd, name);
        }
        // Level-triggered, not one-shot: once written (at close) it wakes every thread for good.
        int rc = Epoll.control(epollFd, Epoll.CTL_ADD, wakeFd, Epoll.EPOLLIN, WAKE_TOKEN);
        if (rc < 0) {
            Libc.close(wakeFd);
            Libc.close(epollFd);
            throw new VerbsException("epoll_ctl", -rc, name + ": EPOLL_CTL_ADD of its eventfd");
        }
        Poller poller = new Poller(name, epollFd, wakeFd);
        for (int i = 0; i < threadCount; i++) {
            Thread thread = Thread.ofPlatform().daemon().name(threadCount == 1 ? name : name + "-" + i)
                    .unstarted(poller::run);
            poller.threads.add(thread);
        }
        poller.threads.forEach(Thread::start);
        return poller;
    }

    /**
     * The JVM's shared poller, started on first use with one thread (and again after someone
     * closed it), or empty when the system property {@value #ENABLED_PROPERTY} is {@code false}.
     *
     * @return the shared poller, or empty when opted out
     */
    public static Optional<Poller> shared() {
        if (!sharedEnabled()) {
            return Optional.empty();
        }
        synchronized (SHARED_LOCK) {
            if (shared == null || shared.closed) {
                shared = start(SHARED_NAME);
            }
            return Optional.of(shared);
        }
    }

    /**
     * Whether the library's waits use the {@link #shared()} poller: unless the system property
     * {@value #ENABLED_PROPERTY} is {@code false}.
     *
     * @return whether the shared poller is used
     */
    public static boolean sharedEnabled() {
        return !"false".equalsIgnoreCase(System.getProperty(ENABLED_PROPERTY));
    }

    /**
     * Registers {@code fd} ({@code EPOLL_CTL_ADD}, disarmed until a waiter, a future or a handler
     * arms it). The fd stays the caller's: it must stay open until the source is closed, and the
     * source must be closed before the fd is.
     *
     * @param fd the file descriptor, readable when there is something to consume
     * @param sourceName names the source in messages, e.g. the channel it belongs to
     * @return the source
     * @throws PollerClosedException if the poller is closed
     * @throws VerbsException naming {@code epoll_ctl} when the kernel refuses the fd
     */
    public PollSource register(int fd, String sourceName) {
        if (closed) {
            throw new PollerClosedException(toString());
        }
        PollSource source = sources.add(token -> new PollSource(this, fd, sourceName, token));
        int rc = control(Epoll.CTL_ADD, fd, Epoll.EPOLLONESHOT, source.token());
        if (rc != 0) {
            sources.remove(source);
            source.closeBecause(toString());
            if (closed) {
                throw new PollerClosedException(toString());
            }
            throw new VerbsException("epoll_ctl", -rc, "EPOLL_CTL_ADD of fd " + fd + " (" + sourceName + ") on " + this);
        }
        return source;
    }

    /**
     * Re-arms {@code source} for one report through its own preallocated {@code armState} (the
     * caller holds the source's arm lock, so no two calls share it): 0, or {@code -errno};
     * {@code -EBADF} once the poller is closed. Allocates nothing.
     */
    int arm(PollSource source, Epoll.ControlState armState) {
        long stamp = fdLock.readLock();
        try {
            if (closed) {
                return -EBADF;
            }
            return Epoll.control(armState, epollFd, Epoll.CTL_MOD, source.fd(), Epoll.EPOLLIN | Epoll.EPOLLONESHOT,
                    source.token());
        } finally {
            fdLock.unlockRead(stamp);
        }
    }

    /** Forgets {@code source} ({@code EPOLL_CTL_DEL}); its fd is still open. */
    void deregister(PollSource source) {
        sources.remove(source);
        control(Epoll.CTL_DEL, source.fd(), 0, 0);
    }

    private int control(int op, int fd, int events, long token) {
        long stamp = fdLock.readLock();
        try {
            if (closed) {
                return -EBADF; // the epoll fd is (being) closed
            }
            return Epoll.control(epollFd, op, fd, events, token);
        } finally {
            fdLock.unlockRead(stamp);
        }
    }

    /** The thread's loop: wait, dispatch every report, until closed. */
    private void run() {
        try (Arena arena = Arena.ofConfined()) {
            Epoll.WaitState events = Epoll.allocateWaitState(arena, MAX_EVENTS);
            while (!closed) {
                int count = Epoll.epollWait(events, epollFd, -1);
                if (count < 0) {
                    if (!closed) {
                        LOG.error("{}: epoll_wait failed with errno {}; closing the poller", this, -count);
                        Thread.ofPlatform().daemon().start(this::close);
                    }
                    return;
                }
                for (int i = 0; i < count && !closed; i++) {
                    long token = Epoll.eventData(events, i);
                    if (token == WAKE_TOKEN) {
                        continue; // never read: stays readable, so every thread sees the close
                    }
                    PollSource source = sources.get(token);
                    if (source != null) {
                        dispatch(source);
                    }
                }
            }
        }
    }

    /** Dispatches one report; one in {@link FlightEvents#DISPATCH_SAMPLE_INTERVAL} is timed and recorded while JFR asks for it. */
    private static void dispatch(PollSource source) {
        if (!FlightEvents.sampleDispatch()) {
            source.dispatch();
            return;
        }
        long start = System.nanoTime();
        int woken = source.dispatch();
        FlightEvents.pollerDispatch(source.name(), source.fd(), System.nanoTime() - start, woken);
    }

    /**
     * Whether {@link #close()} was called.
     *
     * @return whether the poller is closed
     */
    public boolean isClosed() {
        return closed;
    }

    /**
     * How many sources are registered.
     *
     * @return how many sources are registered
     */
    public int sourceCount() {
        return sources.size();
    }

    /**
     * Stops the poller: every source is closed (its waiters end with a
     * {@link PollerClosedException} naming this poller, its futures complete exceptionally with
     * it), the threads are woken through the eventfd and joined (for up to 2 s each; not when the
     * caller is one of them, a handler), then the epoll fd and the eventfd are closed. Idempotent.
     */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        String what = toString();
        for (PollSource source : sources.snapshot()) {
            source.closeBecause(what);
        }
        sources.clear();
        int rc = Epoll.eventFdWrite(wakeFd, 1);
        if (rc < 0) {
            LOG.warn("{}: waking the poller thread failed with errno {}", this, -rc);
        }
        for (Thread thread : threads) {
            if (thread == Thread.currentThread()) {
                continue;
            }
            try {
                if (!thread.join(Duration.ofMillis(JOIN_MILLIS))) {
                    LOG.warn("{}: thread {} did not stop within {} ms (a handler still running?)", this, thread.getName(), JOIN_MILLIS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        long stamp = fdLock.writeLock();
        try {
            Libc.close(epollFd);
            Libc.close(wakeFd);
        } finally {
            fdLock.unlockWrite(stamp);
        }
    }

    @Override
    public String toString() {
        return "Poller[" + name + "]";
    }
}
