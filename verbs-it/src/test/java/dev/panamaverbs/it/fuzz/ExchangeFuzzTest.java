package dev.panamaverbs.it.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import org.junit.jupiter.api.Test;

/**
 * The {@link FuzzCategory#PEER_INPUT} cases need no device: they run here too, with a seed of
 * their own printed ({@code -Dpanamaverbs.fuzzSeed=N} repeats it). Every exchange with the
 * hostile peer ends with its endpoint or a documented exception, within its bound.
 */
class ExchangeFuzzTest {
    @Test
    void everyHostileMessageEndsInTheEndpointOrADocumentedException() throws Exception {
        long seed = Long.getLong("panamaverbs.fuzzSeed", System.nanoTime());
        System.out.println(FuzzReport.seedLine(seed));
        FuzzRun run = new FuzzRun("peerInput", seed);
        ExchangeFuzz.run(null, run);
        assertFalse(run.failed(), "an exchange ended otherwise (see the UNEXPECTED lines), seed " + seed);
        assertEquals(FuzzCategory.PEER_INPUT.minCases, run.cases());
    }
}
