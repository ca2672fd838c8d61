package dev.panamaverbs;

import dev.panamaverbs.ffm.ibv_context;
import dev.panamaverbs.internal.TestFifo;
import dev.panamaverbs.internal.WaitRule;
import dev.panamaverbs.values.NodeType;
import dev.panamaverbs.values.TransportType;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.reflect.Constructor;
import java.util.ArrayList;
import java.util.Optional;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The deadline rule on the public fd waits of the root package, without a device: a context and a
 * completion channel whose fd is a named pipe nobody writes to (so no verb is ever reached: the
 * wait only polls). Never closed: their destroy would call the verbs.
 */
class EventWaitDeadlineTest {
    private static final Predicate<Object> EMPTY = Optional.empty()::equals;
    private static final Predicate<Throwable> INTERRUPTED = t -> t instanceof InterruptedException;

    private final Arena arena = Arena.ofShared();
    private TestFifo fifo;
    private Context context;

    @BeforeEach
    void fakeContext() throws Exception {
        fifo = TestFifo.create();
        MemorySegment raw = arena.allocate(ibv_context.LAYOUT);
        ibv_context.async_fd(raw, fifo.fd());
        context = new Context(new Device("fake0", 0, NodeType.CA, TransportType.UNKNOWN), raw, FakeResource.open("owner", new ArrayList<>()));
    }

    @AfterEach
    void closeFifo() throws Exception {
        fifo.close();
    }

    @Test
    void pollAsyncEvent() throws Exception {
        WaitRule.assertFollowsTheRule("ibv_get_async_event", context::pollAsyncEvent, EMPTY, INTERRUPTED);
    }

    @Test
    void completionChannelAwaitEvent() throws Exception {
        Constructor<CompletionChannel> make = CompletionChannel.class.getDeclaredConstructor(Context.class, MemorySegment.class, int.class);
        make.setAccessible(true);
        CompletionChannel channel = make.newInstance(context, arena.allocate(64), fifo.fd());
        WaitRule.assertFollowsTheRule("ibv_get_cq_event", channel::awaitEvent, EMPTY, INTERRUPTED);
    }
}
