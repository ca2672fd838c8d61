package dev.panamaverbs;

import dev.panamaverbs.values.Errno;
import dev.panamaverbs.internal.NativeCalls;
import dev.panamaverbs.gateway.Pointers;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;

/** {@link QueuePair#postFailure}: how a provider's post answer (+/- errno, bad_wr) becomes an exception. */
class PostFailureTest {
    private static final String[] VERBS = {"ibv_post_send", "ibv_post_recv", "ibv_post_srq_recv"};

    @Test
    void positiveAndNegativeErrnoAreTheSameFailure() {
        for (String verb : VERBS) {
            for (int rc : new int[] {Errno.EINVAL, -Errno.EINVAL}) {
                VerbsException e = NativeCalls.postFailure(verb, rc, "bad_wr wr_id=3 (request 0 of the chain)");
                assertFalse(e instanceof VerbsUnsupportedException, e.toString());
                assertEquals(verb, e.verb());
                assertEquals(Errno.EINVAL, e.errno());
                assertTrue(e.getMessage().startsWith(verb + " failed: errno " + Errno.EINVAL + " ("), e.getMessage());
                assertTrue(e.getMessage().endsWith(": bad_wr wr_id=3 (request 0 of the chain)"), e.getMessage());
            }
        }
    }

    @Test
    void enomemNamesTheRefusedWrIdFromBadWr() {
        try (Arena arena = Arena.ofConfined()) {
            ReceiveWorkRequest second = ReceiveWorkRequest.allocate(arena, 1).wrId(0xBEEF);
            ReceiveWorkRequest head = ReceiveWorkRequest.allocate(arena, 1).wrId(7).next(second);
            head.clearBadRequest();
            Pointers.sized(head.badRequestSlot().address(), 8)
                    .set(ValueLayout.JAVA_LONG, 0, second.address()); // what the provider writes to *bad_wr
            for (String verb : VERBS) {
                for (int rc : new int[] {Errno.ENOMEM, -Errno.ENOMEM}) {
                    VerbsException e = NativeCalls.postFailure(verb, rc, head.describeBadRequest());
                    assertFalse(e instanceof VerbsUnsupportedException, e.toString());
                    assertEquals(Errno.ENOMEM, e.errno());
                    assertTrue(e.getMessage().startsWith(verb + " failed: errno " + Errno.ENOMEM), e.getMessage());
                    assertTrue(e.getMessage().contains("wr_id=" + 0xBEEF + " (request 1 of the chain)"), e.getMessage());
                }
            }
        }
    }

    @Test
    void unsupportedErrnosBecomeVerbsUnsupportedException() {
        for (String verb : VERBS) {
            for (int errno : new int[] {Errno.EOPNOTSUPP, Errno.ENOSYS}) {
                for (int rc : new int[] {errno, -errno}) {
                    VerbsException e = NativeCalls.postFailure(verb, rc, "bad_wr wr_id=1 (request 0 of the chain)");
                    VerbsUnsupportedException unsupported = assertInstanceOf(VerbsUnsupportedException.class, e);
                    assertEquals(verb, unsupported.verb());
                    assertEquals(errno, unsupported.errno());
                    assertTrue(e.getMessage().startsWith(verb + " is not supported"), e.getMessage());
                }
            }
        }
    }
}
