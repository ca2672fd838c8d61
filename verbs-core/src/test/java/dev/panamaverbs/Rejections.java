package dev.panamaverbs;

import dev.panamaverbs.values.QueuePairType;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.function.Executable;

/**
 * The checks made before a native call throw {@link IllegalArgumentException}s whose message
 * starts with the verb: the tests assert that here, in one place.
 */
final class Rejections {
    /** What {@link SendOperations} allows on each transport, as the post-send checks see it. */
    static final int RC = SendOperations.allowedBits(QueuePairType.RC);
    static final int UC = SendOperations.allowedBits(QueuePairType.UC);
    static final int UD = SendOperations.allowedBits(QueuePairType.UD);

    private Rejections() {}

    /** {@code call} throws an IllegalArgumentException whose message starts with {@code prefix}. */
    static IllegalArgumentException assertRejectedWith(String prefix, Executable call) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call);
        assertTrue(e.getMessage().startsWith(prefix), e.getMessage());
        return e;
    }

    /** As {@link #assertRejectedWith}, and the message also contains {@code text}. */
    static void assertRejectedWith(String prefix, String text, Executable call) {
        IllegalArgumentException e = assertRejectedWith(prefix, call);
        assertTrue(e.getMessage().contains(text), e.getMessage());
    }

    /** The checks of one verb: messages start with {@code prefix} (e.g. {@code "ibv_create_ah: "}). */
    record Verb(String prefix) {
        /** {@code call} is refused with a message that starts with the verb's prefix and then {@code field}. */
        void assertRejected(String field, Executable call) {
            assertRejectedWith(prefix + field, call);
        }
    }

    /** Refused by a check made before {@code ibv_post_send}, with {@code text} in the message. */
    static void assertPostSendRejected(String text, Executable call) {
        assertRejectedWith("ibv_post_send", text, call);
    }
}
