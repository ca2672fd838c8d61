package dev.panamaverbs.gateway;

import dev.panamaverbs.loader.internal.*;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panamaverbs.ffm.ibv_recv_wr;
import dev.panamaverbs.ffm.ibv_send_wr;
import dev.panamaverbs.ffm.ibv_wc;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import org.junit.jupiter.api.Test;

/**
 * The segment variants of the data-path verbs: the arena of a request or completion array
 * passed to them stays open until the provider returns. The "provider" here is a Java upcall
 * that tries to close that arena from inside the call, as another thread could at that moment.
 */
@SuppressWarnings("restricted") // native access is granted to this module on purpose
class OpsTableSegmentsTest {
    /** The arena the upcall tries to close, and what closing it did. */
    private static Arena arenaToClose;
    private static Throwable closeFailure;
    private static boolean closed;

    static int provider(MemorySegment object, MemorySegment wr, MemorySegment badWr) {
        tryClose();
        return 0;
    }

    static int pollProvider(MemorySegment cq, int numEntries, MemorySegment wc) {
        tryClose();
        return 0;
    }

    private static void tryClose() {
        try {
            arenaToClose.close();
            closed = true;
        } catch (Throwable e) {
            closeFailure = e;
        }
    }

    /** The signature of post_send, post_recv and post_srq_recv. */
    private static final FunctionDescriptor POST = FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS);

    private static MemorySegment upcall(String name, FunctionDescriptor descriptor, Arena scope) throws Exception {
        MethodHandle target = MethodHandles.lookup().findStatic(OpsTableSegmentsTest.class, name,
                descriptor.toMethodType());
        return Linker.nativeLinker().upcallStub(target, descriptor, scope);
    }

    private static void reset(Arena arena) {
        arenaToClose = arena;
        closeFailure = null;
        closed = false;
    }

    @Test
    void aPostKeepsTheRequestsArenaOpenUntilTheProviderReturns() throws Exception {
        try (Arena stubs = Arena.ofConfined()) {
            MemorySegment provider = upcall("provider", POST, stubs);
            MemorySegment qp = stubs.allocate(64);
            for (int verb = 0; verb < 3; verb++) {
                Arena requestArena = Arena.ofShared();
                MemorySegment badWr = requestArena.allocate(JAVA_LONG);
                reset(requestArena);
                int rc = switch (verb) {
                    case 0 -> OpsTable.postSend(provider, qp, requestArena.allocate(ibv_send_wr.LAYOUT), badWr);
                    case 1 -> OpsTable.postRecv(provider, qp, requestArena.allocate(ibv_recv_wr.LAYOUT), badWr);
                    default -> OpsTable.postSrqRecv(provider, qp, requestArena.allocate(ibv_recv_wr.LAYOUT), badWr);
                };
                assertEquals(0, rc);
                assertFalse(closed, "verb " + verb + ": the request's arena closed under the provider");
                assertInstanceOf(IllegalStateException.class, closeFailure, "verb " + verb);
                requestArena.close(); // after the call it closes
            }
            // The raw variant (addresses as longs), as the data path called it before: the arena
            // closes under the provider, which would then read freed memory.
            Arena rawArena = Arena.ofShared();
            MemorySegment wr = rawArena.allocate(ibv_send_wr.LAYOUT);
            MemorySegment badWr = rawArena.allocate(JAVA_LONG);
            reset(rawArena);
            assertEquals(0, OpsTablePosts.postSend(provider, qp.address(), wr.address(), badWr.address()));
            assertTrue(closed, "the raw variant keeps nothing open");
        }
    }

    @Test
    void aPollKeepsTheCompletionArraysArenaOpenUntilTheProviderReturns() throws Exception {
        FunctionDescriptor poll = FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS);
        try (Arena stubs = Arena.ofConfined()) {
            MemorySegment provider = upcall("pollProvider", poll, stubs);
            Arena batchArena = Arena.ofShared();
            reset(batchArena);
            assertEquals(0, OpsTable.pollCq(provider, stubs.allocate(64), 4,
                    batchArena.allocate(ibv_wc.LAYOUT, 4)));
            assertFalse(closed, "the completion array's arena closed under the provider");
            assertInstanceOf(IllegalStateException.class, closeFailure);
            batchArena.close();
        }
    }

    @Test
    void argumentsTooSmallForTheirCTypeAreRefusedBeforeTheCall() throws Exception {
        reset(Arena.ofConfined()); // never closed by the provider: it is never called
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment qp = arena.allocate(64);
            MemorySegment provider = upcall("provider", POST, arena);
            assertThrows(IllegalArgumentException.class, () -> OpsTable.postSend(provider, qp,
                    arena.allocate(ibv_send_wr.LAYOUT.byteSize() - 8), arena.allocate(JAVA_LONG)));
            assertThrows(IllegalArgumentException.class, () -> OpsTable.postRecv(provider, qp,
                    arena.allocate(ibv_recv_wr.LAYOUT), arena.allocate(4)));
            assertThrows(IllegalArgumentException.class, () -> OpsTable.postSend(provider, MemorySegment.NULL,
                    arena.allocate(ibv_send_wr.LAYOUT), arena.allocate(JAVA_LONG)));
            assertThrows(IllegalArgumentException.class, () -> OpsTable.pollCq(provider, qp, 4,
                    arena.allocate(ibv_wc.LAYOUT, 3)));
            assertTrue(arenaToClose.scope().isAlive(), "the provider was never called");
            arenaToClose.close();
        }
    }
}
