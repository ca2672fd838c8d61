package dev.panamaverbs.testkit;

import dev.panamaverbs.VerbsException;
import dev.panamaverbs.VerbsUnsupportedException;
import org.junit.jupiter.api.Test;
import org.opentest4j.TestAbortedException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;

/** A VerbsUnsupportedException becomes a skip naming the verb; anything else still fails. */
class UnsupportedVerbSkipTest {

    @Test
    void unsupportedVerbBecomesAnAbortNamingTheVerbAndDevice() {
        VerbsUnsupportedException unsupported = new VerbsUnsupportedException("ibv_alloc_dm", 95);
        Throwable result = RdmaDeviceExtension.asSkipIfUnsupported("rxe0", unsupported);
        TestAbortedException aborted = assertInstanceOf(TestAbortedException.class, result);
        assertEquals("ibv_alloc_dm is not supported on rxe0: ibv_alloc_dm is not supported: errno 95"
                + " (EOPNOTSUPP: Operation not supported)", aborted.getMessage());
        assertSame(unsupported, aborted.getCause());
    }

    @Test
    void unsupportedAsACauseIsFoundToo() {
        RuntimeException wrapped = new RuntimeException("setup", new VerbsUnsupportedException("ibv_create_srq", "ops entry is null"));
        assertInstanceOf(TestAbortedException.class, RdmaDeviceExtension.asSkipIfUnsupported("rxe0", wrapped));
    }

    @Test
    void otherFailuresStayFailures() {
        VerbsException failure = new VerbsException("ibv_create_qp", 22);
        assertSame(failure, RdmaDeviceExtension.asSkipIfUnsupported("rxe0", failure));
        AssertionError assertion = new AssertionError("wrong value");
        assertSame(assertion, RdmaDeviceExtension.asSkipIfUnsupported("rxe0", assertion));
    }
}
