package dev.panamaverbs.gateway;

import dev.panamaverbs.loader.internal.FakeProvider;

import java.lang.foreign.Arena;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;

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

    @BeforeEach
    void resetTheRecorders() {
        fake.reset();
    }
}
