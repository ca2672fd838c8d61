package dev.panamaverbs.cm;

import static dev.panamaverbs.cm.IdentifierState.ADDRESS_RESOLVED;
import static dev.panamaverbs.cm.IdentifierState.BOUND;
import static dev.panamaverbs.cm.IdentifierState.CLOSED;
import static dev.panamaverbs.cm.IdentifierState.CONNECTED;
import static dev.panamaverbs.cm.IdentifierState.CONNECTING;
import static dev.panamaverbs.cm.IdentifierState.CREATED;
import static dev.panamaverbs.cm.IdentifierState.DISCONNECTED;
import static dev.panamaverbs.cm.IdentifierState.DISCONNECTING;
import static dev.panamaverbs.cm.IdentifierState.FAILED;
import static dev.panamaverbs.cm.IdentifierState.LISTENING;
import static dev.panamaverbs.cm.IdentifierState.REJECTED;
import static dev.panamaverbs.cm.IdentifierState.REQUEST;
import static dev.panamaverbs.cm.IdentifierState.RESOLVING_ADDRESS;
import static dev.panamaverbs.cm.IdentifierState.RESOLVING_ROUTE;
import static dev.panamaverbs.cm.IdentifierState.ROUTE_RESOLVED;

import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * librdmacm's order for one {@link ConnectionId}: its {@link IdentifierState}, which state each
 * step needs ({@link #refusal}), and what each event moves it to ({@link #afterEvent}). The
 * table is written from librdmacm's {@code cma.c} and the kernel's {@code rdma_cm}: the verbs
 * that read the device ({@code rdma_resolve_route}, {@code rdma_connect}, {@code rdma_accept})
 * dereference it unchecked, so they run only in states where it is set.
 *
 * <p>Thread safety: the state is one atomic reference. The steps that do not wait run their
 * check, native call and transition holding {@link #lock()} (short: the rdma_cm calls return at
 * once, the channel is non-blocking); the waits hold no lock, so close is never held up. Events
 * move the state by compare-and-set from whichever thread takes them.
 */
final class IdentifierOrder {
    /** The identifier's steps, each named by the C verb it runs. */
    enum Step {
        BIND("rdma_bind_addr"),
        LISTEN("rdma_listen"),
        RESOLVE_ADDRESS("rdma_resolve_addr"),
        RESOLVE_ROUTE("rdma_resolve_route"),
        CREATE_QUEUE_PAIR("rdma_create_qp"),
        CONNECT("rdma_connect"),
        ACCEPT("rdma_accept"),
        REJECT("rdma_reject"),
        DISCONNECT("rdma_disconnect"),
        AWAIT_DISCONNECT("rdma_get_cm_event (DISCONNECTED)"),
        AWAIT_REQUEST("rdma_get_request"),
        AWAIT_EVENT("rdma_get_cm_event"),
        /** {@link ConnectionId#context()}: reads {@code rdma_cm_id.verbs}. */
        CONTEXT("rdma_cm_id.verbs");

        private final String verb;

        Step(String verb) {
            this.verb = verb;
        }

        /** The C verb (or field) the step uses, for messages. */
        String verb() {
            return verb;
        }
    }

    /** The identifier, named in refusals. */
    private final Object owner;
    private final PortSpace space;
    private final AtomicReference<IdentifierState> state;
    private final ReentrantLock lock = new ReentrantLock();

    IdentifierOrder(Object owner, PortSpace space, IdentifierState initial) {
        this.owner = owner;
        this.space = space;
        state = new AtomicReference<>(initial);
    }

    IdentifierState state() {
        return state.get();
    }

    /** The lock the non-waiting steps hold from check to transition. */
    ReentrantLock lock() {
        return lock;
    }

    /** Moves from {@code from} to {@code to} when still in {@code from}. */
    boolean move(IdentifierState from, IdentifierState to) {
        return state.compareAndSet(from, to);
    }

    /** Closed: every later step is refused. */
    void close() {
        state.set(CLOSED);
    }

    /**
     * The current state when {@code step} may run in it, else throws.
     *
     * @throws IllegalStateException naming the verb, {@code who}, its state and the missing step
     */
    IdentifierState require(Step step, boolean hasQueuePair) {
        IdentifierState current = state.get();
        String refused = refusal(step, current, space, hasQueuePair);
        if (refused != null) {
            throw new IllegalStateException(step.verb() + ": " + owner + " is " + current + ": " + refused);
        }
        return current;
    }

    /**
     * A step that does not wait: under {@link #lock()}, {@link #require}s {@code step}, moves to
     * {@code after} and runs {@code body} (the native call). When {@code body} throws, the state
     * becomes {@code failed}, or (null) is as before.
     */
    void run(Step step, BooleanSupplier hasQueuePair, IdentifierState after, IdentifierState failed, Runnable body) {
        lock.lock();
        try {
            IdentifierState from;
            do {
                from = require(step, hasQueuePair.getAsBoolean());
            } while (!move(from, after));
            try {
                body.run();
            } catch (RuntimeException | Error e) {
                move(after, failed != null ? failed : from);
                throw e;
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * A step that waits for its event: {@link #run} moving to {@code during} while {@code start}
     * (the native call) runs, then {@code await} holding no lock. The event moves the state on
     * ({@link #observe}); a wait that ends otherwise (timeout, interrupt, close) leaves FAILED,
     * since the event may still come.
     */
    <T> T runWaiting(Step step, BooleanSupplier hasQueuePair, IdentifierState during, IdentifierState failed,
                     Runnable start, Supplier<T> await) {
        run(step, hasQueuePair, during, failed, start);
        try {
            return await.get();
        } catch (RuntimeException | Error e) {
            move(during, FAILED);
            throw e;
        }
    }

    /** Applies {@code type}'s transition; returns the state before it. */
    IdentifierState observe(ConnectionEventType type) {
        while (true) {
            IdentifierState before = state.get();
            IdentifierState after = afterEvent(before, type);
            if (after == before || state.compareAndSet(before, after)) {
                return before;
            }
        }
    }

    /**
     * Why {@code step} may not run in {@code current} (the missing step), or null when it may.
     * {@code hasQueuePair}: the identifier has an open queue pair (for accept: or answers with
     * another's).
     */
    static String refusal(Step step, IdentifierState current, PortSpace space, boolean hasQueuePair) {
        if (current == CLOSED) {
            return "it is closed";
        }
        if (current.isWaiting() && step != Step.CONTEXT) {
            return "another call on it waits for " + awaited(current) + "; let that call end first";
        }
        if (step != Step.AWAIT_EVENT && step != Step.CONTEXT) {
            if (current == REJECTED) {
                return "the request was rejected; only close remains";
            }
            if (current == FAILED) {
                return "an earlier step failed; only close remains (use a new identifier)";
            }
        }
        return switch (step) {
            case BIND -> current == CREATED ? null
                    : "bind comes first, once; use a new identifier";
            case LISTEN -> switch (current) {
                case BOUND -> null;
                case CREATED -> "it is not bound yet; call bind first";
                case LISTENING -> "it is listening already";
                default -> "only a bound identifier listens; use a new identifier";
            };
            case RESOLVE_ADDRESS -> switch (current) {
                case CREATED, BOUND -> null;
                case LISTENING -> "a listening identifier resolves no address; use a new identifier";
                case REQUEST -> "a request's identifier has its peer already: accept or reject it";
                default -> "the address is resolved already; another peer needs a new identifier";
            };
            case RESOLVE_ROUTE -> switch (current) {
                case ADDRESS_RESOLVED -> null;
                case CREATED, BOUND -> "the address is not resolved yet; call resolveAddress first";
                case LISTENING -> "a listening identifier has no route; use a new identifier";
                case REQUEST -> "a request's identifier has its route already: accept or reject it";
                default -> "the route is resolved already";
            };
            case CREATE_QUEUE_PAIR -> createQueuePairRefusal(current, space, hasQueuePair);
            case CONNECT -> switch (current) {
                case ROUTE_RESOLVED -> hasQueuePair || space.isDatagram() ? null
                        : "it has no queue pair; call createQueuePair first";
                case CREATED, BOUND -> "the address is not resolved yet; call resolveAddress, resolveRoute and"
                        + " createQueuePair first";
                case ADDRESS_RESOLVED -> "the route is not resolved yet; call resolveRoute first";
                case LISTENING -> "a listening identifier does not connect: take its requests with awaitRequest";
                case REQUEST -> "a request's identifier is answered with accept, not connect";
                case CONNECTED, DISCONNECTING -> "it is connected already";
                default -> "the connection is over; a new one needs a new identifier";
            };
            case ACCEPT -> switch (current) {
                case REQUEST -> hasQueuePair ? null : "it has no queue pair to answer with; call createQueuePair first";
                case LISTENING -> "accept the request's identifier (from awaitRequest), not the listener";
                case CONNECTED, DISCONNECTING, DISCONNECTED -> "the request is answered already";
                default -> "only a connection request's identifier (from awaitRequest) is accepted";
            };
            case REJECT -> switch (current) {
                case REQUEST -> null;
                case LISTENING -> "reject the request's identifier (from awaitRequest), not the listener";
                case CONNECTED, DISCONNECTING, DISCONNECTED -> "the request is answered already";
                default -> "only a connection request's identifier (from awaitRequest) is rejected";
            };
            case DISCONNECT, AWAIT_DISCONNECT -> disconnectRefusal(current, space);
            case AWAIT_REQUEST -> switch (current) {
                case LISTENING -> null;
                case CREATED -> "it is not listening; call bind and listen first";
                case BOUND -> "it is not listening; call listen first";
                default -> "only a listening identifier receives connection requests";
            };
            case AWAIT_EVENT -> null;
            case CONTEXT -> current == CREATED
                    ? "no device is chosen yet; call resolveAddress (or bind to an RDMA device's address) first" : null;
        };
    }

    private static String createQueuePairRefusal(IdentifierState current, PortSpace space, boolean hasQueuePair) {
        String refused = switch (current) {
            case BOUND, ADDRESS_RESOLVED, ROUTE_RESOLVED, REQUEST -> null;
            case LISTENING -> space.isDatagram() ? null
                    : "a listening " + space + " identifier takes no queue pair; create it on the request's identifier";
            case CREATED -> "no device is chosen yet; call resolveAddress (or bind to an RDMA device's address) first";
            default -> "the connection is made already; create the queue pair before connect or accept";
        };
        return refused == null && hasQueuePair ? "it has a queue pair already; close that one first" : refused;
    }

    private static String disconnectRefusal(IdentifierState current, PortSpace space) {
        if (space.isDatagram()) {
            return "a datagram identifier has no connection to end; close it";
        }
        return switch (current) {
            case CONNECTED, DISCONNECTING, DISCONNECTED -> null;
            case LISTENING -> "a listening identifier has no connection; close it to stop listening";
            case REQUEST -> "it is not connected; accept the request first";
            default -> "it is not connected; call connect first";
        };
    }

    /** The event a waiting state waits for. */
    private static String awaited(IdentifierState waiting) {
        return switch (waiting) {
            case RESOLVING_ADDRESS -> "ADDR_RESOLVED";
            case RESOLVING_ROUTE -> "ROUTE_RESOLVED";
            default -> "ESTABLISHED";
        };
    }

    /**
     * The state {@code type} moves {@code current} to (the same when it moves nothing). A failed
     * resolution goes back a step, as the kernel's does: resolving again is allowed.
     */
    static IdentifierState afterEvent(IdentifierState current, ConnectionEventType type) {
        if (type == null || current == CLOSED) {
            return current;
        }
        return switch (type) {
            case ADDR_RESOLVED -> current == RESOLVING_ADDRESS ? ADDRESS_RESOLVED : current;
            case ADDR_ERROR -> current == RESOLVING_ADDRESS ? BOUND : current;
            case ROUTE_RESOLVED -> current == RESOLVING_ROUTE ? ROUTE_RESOLVED : current;
            case ROUTE_ERROR -> current == RESOLVING_ROUTE ? ADDRESS_RESOLVED : current;
            case ESTABLISHED -> current == CONNECTING ? CONNECTED : current;
            case REJECTED, UNREACHABLE, CONNECT_ERROR -> current == CONNECTING ? FAILED : current;
            case DISCONNECTED -> current == CONNECTING || current == CONNECTED || current == DISCONNECTING
                    ? DISCONNECTED : current;
            case DEVICE_REMOVAL -> FAILED;
            default -> current;
        };
    }
}
