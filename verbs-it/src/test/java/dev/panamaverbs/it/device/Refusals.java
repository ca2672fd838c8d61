package dev.panamaverbs.it.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.panamaverbs.values.Errno;
import dev.panamaverbs.VerbsUnsupportedException;
import org.junit.jupiter.api.function.Executable;

/** The device tests' check of a verb rxe does not offer: refused as unsupported, naming the verb, with EOPNOTSUPP. */
final class Refusals {
    private Refusals() {}

    /** {@code call} throws a {@link VerbsUnsupportedException} for {@code verb} with EOPNOTSUPP; printed for {@code test}'s log. */
    static void assertRefused(String test, String verb, Executable call) {
        VerbsUnsupportedException e = assertThrows(VerbsUnsupportedException.class, call, verb);
        assertEquals(verb, e.verb(), e.getMessage());
        assertEquals(Errno.EOPNOTSUPP, e.errno(), e.getMessage());
        System.out.println("# " + test + ": " + e.getMessage());
    }
}
