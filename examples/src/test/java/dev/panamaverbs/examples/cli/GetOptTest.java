package dev.panamaverbs.examples.cli;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** getopt_long's habits: attached and separate values, clustered flags, long options, operands anywhere. */
class GetOptTest {
    private final GetOpt getopt = new GetOpt("p:g:vV", Map.of("port", 'p', "verbose", 'v'));

    @Test
    void attachedSeparateAndLongValues() {
        GetOpt.Parsed parsed = getopt.parse("-p7174", "-g", "1", "--port=9", "--port", "10", "host");
        assertEquals(List.of(new GetOpt.Option('p', "7174"), new GetOpt.Option('g', "1"), new GetOpt.Option('p', "9"),
                new GetOpt.Option('p', "10")), parsed.options());
        assertEquals(List.of("host"), parsed.operands());
    }

    @Test
    void clusteredFlagsAndOperandsBeforeOptions() {
        GetOpt.Parsed parsed = getopt.parse("host", "-vVg2", "--verbose", "--", "-p");
        assertEquals(List.of(new GetOpt.Option('v', null), new GetOpt.Option('V', null), new GetOpt.Option('g', "2"),
                new GetOpt.Option('v', null)), parsed.options());
        assertEquals(List.of("host", "-p"), parsed.operands());
    }

    @Test
    void unknownOptionsAndMissingValuesAreNamed() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> getopt.parse("-x")).getMessage().contains("'x'"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> getopt.parse("-p")).getMessage().contains("'p'"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> getopt.parse("--nope")).getMessage().contains("--nope"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> getopt.parse("--verbose=1")).getMessage().contains("--verbose"));
    }

    @Test
    void numbersAsStrtolReadsThem() {
        assertEquals(18515, GetOpt.number("18515", "port"));
        assertEquals(0x10, GetOpt.number("0x10", "size"));
        assertEquals(8, GetOpt.number("010", "size"));
        assertEquals(-1, GetOpt.number("-1", "gid"));
        assertEquals(0, GetOpt.number("0", "gid"));
        assertThrows(IllegalArgumentException.class, () -> GetOpt.number("12abc", "size"));
    }
}
