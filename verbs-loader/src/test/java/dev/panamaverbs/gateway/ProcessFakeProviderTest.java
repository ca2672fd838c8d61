package dev.panamaverbs.gateway;

import dev.panamaverbs.loader.internal.FakeProvider;

import dev.panamaverbs.ffm.invoke.CallState;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The fixture of the tests that drive ops against the standard fake provider loaded as the
 * process's libibverbs (each such class runs in its own JVM): one fake context for the class, a
 * shared arena for the attribute structs, and the fake's recorders reset before each test.
 */
abstract class ProcessFakeProviderTest {
    static FakeProvider fake;
    static long context;
    static Arena arena;

    @BeforeAll
    static void useTheFakeLibrary() {
        fake = FakeProvider.standardAsProcessLibrary();
        context = fake.context();
        arena = Arena.ofShared();
    }

    @AfterAll
    static void closeTheArena() {
        arena.close();
    }

    /** A call state of the test's own, where the verbs returning a pointer leave their errno. */
    final MemorySegment state = CallState.allocate(arena);

    @BeforeEach
    void resetTheRecorders() {
        fake.reset();
    }

    /** The last op the fake recorded is {@code op}, and its first arguments are {@code args}, in order. */
    static void assertLastCall(String op, long... args) {
        assertEquals(op, fake.lastOp());
        long[] received = new long[args.length];
        for (int i = 0; i < args.length; i++) {
            received[i] = fake.arg(i);
        }
        assertArrayEquals(args, received, () -> op + "'s arguments");
    }

    /**
     * A verb returning a pointer, called where the provider lacks its op: 0, EOPNOTSUPP in
     * {@code state}, as the header answers, and no call reached the provider.
     */
    static void assertUnsupportedInErrno(MemorySegment state, LongSupplier... verbs) {
        long calls = fake.calls();
        for (LongSupplier verb : verbs) {
            assertEquals(0, verb.getAsLong());
            assertEquals(OpsTable.EOPNOTSUPP, CallState.errno(state));
        }
        assertEquals(calls, fake.calls());
    }

    /**
     * The provider's error comes back as is: {@code errno} from {@code destroy} (returned) and from
     * {@code create} (0, the errno in {@code state}); the fake answers 0 again afterwards.
     */
    static void assertProviderErrorPassesThrough(MemorySegment state, int errno, IntSupplier destroy,
                                                 LongSupplier create) {
        fake.nextReturn(errno);
        assertEquals(errno, destroy.getAsInt());
        assertEquals(0, create.getAsLong());
        assertEquals(errno, CallState.errno(state));
        fake.nextReturn(0);
    }

    /** The fake's layout answers {@code first}, {@code first + 1}, ... are {@code expected}, in order. */
    static void assertLayouts(int first, long... expected) {
        for (int i = 0; i < expected.length; i++) {
            assertEquals(fake.layout(first + i), expected[i]);
        }
    }
}
