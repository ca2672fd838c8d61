package dev.panamaverbs.it.fuzz;

import dev.panamaverbs.Completions;
import dev.panamaverbs.ReceiveWorkRequest;
import dev.panamaverbs.SendWorkRequest;
import dev.panamaverbs.values.WorkRequestOpcode;
import dev.panamaverbs.testkit.RcLoopbackPair;
import dev.panamaverbs.testkit.TestDevice;
import java.lang.foreign.Arena;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Work requests and completion arrays whose arena closed, before and during the call. Before:
 * post, poll and await with a closed request or batch throw {@link IllegalStateException}, and
 * every public accessor of them throws it (or {@link IllegalArgumentException} for its
 * argument) or answers from Java state; none reads or writes the freed memory. During: one thread posts and polls with a request and a batch of
 * a shared arena while another closes that arena after a seeded delay; the close either fails
 * (the arena is in use by the call) and is retried, or succeeds between calls and the next call
 * throws {@link IllegalStateException}; nothing else, and no crash.
 */
final class ClosedArenaFuzz {
    private static final int DURING_ROUNDS = 12;

    private ClosedArenaFuzz() {}

    static void run(TestDevice device, FuzzRun run) throws Exception {
        try (RcLoopbackPair pair = RcLoopbackPair.open(device)) {
            before(run, pair);
        }
        Random random = run.random();
        for (int round = 0; round < DURING_ROUNDS; round++) {
            int delayMicros = random.nextInt(2_000);
            boolean receive = random.nextBoolean();
            // A pair per round: the receives a round leaves posted would fill the next round's queue.
            try (RcLoopbackPair pair = RcLoopbackPair.open(device)) {
                run.run("round " + round + (receive ? " receive" : " send") + " arena closed after " + delayMicros + " us",
                        List.of(), () -> during(pair, delayMicros, receive));
            }
        }
    }

    private static void before(FuzzRun run, RcLoopbackPair pair) {
        Arena arena = Arena.ofShared();
        SendWorkRequest send = SendWorkRequest.allocate(arena, 2).wrId(1).opcode(WorkRequestOpcode.RDMA_WRITE)
                .sge(pair.firstBuffer().region(), 0, 8).rdma(pair.secondBuffer().deviceAddress(0),
                        pair.secondBuffer().region().rkey());
        ReceiveWorkRequest receive = ReceiveWorkRequest.allocate(arena, 2).wrId(2).sge(0, pair.secondBuffer().region(), 0, 8);
        Completions completions = Completions.allocate(arena, 4);
        ReceiveWorkRequest chainHead = ReceiveWorkRequest.allocate(1).wrId(3).next(receive);
        arena.close();
        List<Class<? extends Throwable>> closed = List.of(IllegalStateException.class);
        List<Class<? extends Throwable>> closedOrInvalid = List.of(IllegalStateException.class, IllegalArgumentException.class);
        run.run("postSend", closed, () -> pair.first().postSend(send));
        run.run("postReceive", closed, () -> pair.second().postReceive(receive));
        run.run("postReceive of a chain whose second request's arena closed", closed, () -> pair.second().postReceive(chainHead));
        run.run("poll", closed, () -> pair.firstQueue().poll(completions));
        run.run("awaitCompletions", closed, () -> pair.firstQueue().awaitCompletions(completions, Duration.ofMillis(10)));
        for (Object target : List.of(send, receive, completions)) {
            for (Method method : target.getClass().getMethods()) {
                if (Modifier.isStatic(method.getModifiers()) || method.getDeclaringClass() == Object.class) {
                    continue;
                }
                Object[] args = simpleArguments(method);
                if (args == null) {
                    continue;
                }
                // Values kept in Java fields may answer; whatever reads the freed memory must throw.
                run.run(target.getClass().getSimpleName() + "." + method.getName() + "(" + args.length + " args)",
                        closedOrInvalid, () -> {
                            try {
                                method.invoke(target, args);
                            } catch (InvocationTargetException e) {
                                throw e.getCause();
                            }
                        });
            }
        }
    }

    /** Arguments of int, long and boolean parameters (0, 0, false); null for any other parameter. */
    private static Object[] simpleArguments(Method method) {
        Class<?>[] types = method.getParameterTypes();
        Object[] args = new Object[types.length];
        for (int i = 0; i < types.length; i++) {
            if (types[i] == int.class) {
                args[i] = 0;
            } else if (types[i] == long.class) {
                args[i] = 0L;
            } else if (types[i] == boolean.class) {
                args[i] = false;
            } else {
                return null;
            }
        }
        return args;
    }

    private static void during(RcLoopbackPair pair, int delayMicros, boolean receive) throws Exception {
        Arena arena = Arena.ofShared();
        SendWorkRequest send = SendWorkRequest.allocate(arena, 1).opcode(WorkRequestOpcode.RDMA_WRITE).signaled(true)
                .sge(pair.firstBuffer().region(), 0, 64).rdma(pair.secondBuffer().deviceAddress(0),
                        pair.secondBuffer().region().rkey());
        ReceiveWorkRequest recv = ReceiveWorkRequest.allocate(arena, 1).sge(0, pair.secondBuffer().region(), 0, 64);
        Completions completions = Completions.allocate(arena, 16);
        AtomicBoolean closed = new AtomicBoolean();
        Throwable[] failure = new Throwable[1];
        Thread worker = Thread.ofPlatform().start(() -> {
            try {
                long outstanding = 0;
                for (long i = 0; ; i++) {
                    // Bounded by the queues' 64 entries: receives stop at 48 (nothing consumes them),
                    // sends wait for completions beyond 32 outstanding.
                    if (receive) {
                        if (i < 48) {
                            pair.second().postReceive(recv.wrId(i));
                        }
                        pair.secondQueue().poll(completions);
                    } else {
                        if (outstanding < 32) {
                            pair.first().postSend(send.wrId(i));
                            outstanding++;
                        }
                        outstanding -= pair.firstQueue().poll(completions);
                    }
                }
            } catch (IllegalStateException e) {
                if (!closed.get() && !e.getMessage().contains("closed")) {
                    failure[0] = e;
                }
            } catch (Throwable t) {
                failure[0] = t;
            }
        });
        long until = System.nanoTime() + delayMicros * 1_000L;
        while (System.nanoTime() < until) {
            Thread.onSpinWait();
        }
        while (true) {
            try {
                arena.close();
                closed.set(true);
                break;
            } catch (IllegalStateException inUse) {
                Thread.onSpinWait(); // a post or poll holds the arena: that is the point
            }
        }
        worker.join(10_000);
        if (worker.isAlive()) {
            throw new AssertionError("the worker did not stop after its arena closed");
        }
        if (failure[0] != null) {
            throw new AssertionError("the worker ended with " + failure[0], failure[0]);
        }
    }
}
