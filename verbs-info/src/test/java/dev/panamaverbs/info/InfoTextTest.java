package dev.panamaverbs.info;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The sections beyond ibv_devinfo, the whole text report, and the command line. */
class InfoTextTest {

    @Test
    void gidTableHasTypesAndNetdevs() {
        assertEquals("""
                \tgid_table port 1:\t4 entries
                \t\tGID[  0]:\tfe80::5054:ff:fe12:3456\tRoCE v2\teth0
                \t\tGID[  1]:\t::ffff:10.0.2.15\tRoCE v2\teth0
                \t\tGID[  2]:\tfe80::1\tRoCE v1\t#3
                \t\tGID[  3]:\tfe80::\tRoCE v2\t-

                """, InfoText.gidTables(Fakes.rxe(Optional.empty())));
    }

    @Test
    void librarySectionNamesVersionPathAndCapabilities() {
        assertEquals("""
                panama-verbs:\t0.1.0-TEST
                libibverbs:\tavailable (/usr/lib/libibverbs.so.1)
                capabilities:\tQP_EX QUERY_GID_EX
                missing_capabilities:\tQUERY_QP_DATA_IN_ORDER
                librdmacm:\tNOT available: librdmacm "gone"
                """, InfoText.library(Fakes.library()));
    }

    @Test
    void reportIsLibraryThenEachDeviceBlockThenItsGids() {
        DeviceInfo rxe = Fakes.rxe(Optional.empty());
        String text = VerbsInfo.text(Fakes.library(), List.of(rxe), false);
        assertEquals(InfoText.library(Fakes.library()) + "devices:\t1\n\n" + DevinfoText.format(rxe, false) + InfoText.gidTables(rxe), text);
    }

    @Test
    void optionsAreIbvDevinfosWhereTheyOverlap() {
        assertEquals(new Options(true, Optional.of("rxe0"), true, false), Options.parse(List.of("--json", "-d", "rxe0", "-v")));
        assertEquals(Optional.of("mlx5_0"), Options.parse(List.of("--ib-dev=mlx5_0")).device());
        assertEquals(Optional.of("rxe1"), Options.parse(List.of("-drxe1")).device());
        assertEquals(new Options(false, Optional.empty(), false, false), Options.parse(List.of()));
        assertThrows(IllegalArgumentException.class, () -> Options.parse(List.of("-d")));
        assertThrows(IllegalArgumentException.class, () -> Options.parse(List.of("--bogus")));
    }

    @Test
    void badCommandLineExitsTwoWithUsage() {
        var out = new java.io.ByteArrayOutputStream();
        var err = new java.io.ByteArrayOutputStream();
        int status = VerbsInfo.run(List.of("--nope"), new java.io.PrintStream(out), new java.io.PrintStream(err));
        assertEquals(2, status);
        assertTrue(err.toString().contains("unknown argument: --nope") && err.toString().contains("usage: verbs-info"));
    }
}
