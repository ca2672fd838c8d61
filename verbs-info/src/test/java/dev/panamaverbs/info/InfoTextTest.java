package dev.panamaverbs.info;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
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
    void portCountersAreListedPerDirectoryWithTheClockOrNotOffered() {
        assertEquals("""
                \tport_counters port 1:\t1 counters, 2 hw_counters, raw clock not offered
                \t\tcounters/port_xmit_packets:\t99
                \t\thw_counters/rcvd_rnr_err:\t1
                \t\thw_counters/sent_pkts:\t18446744073709551615

                """, InfoText.portCounters(Fakes.rxeWithCounters(OptionalLong.empty())));
        assertTrue(InfoText.portCounters(Fakes.rxeWithCounters(OptionalLong.of(1_500)))
                .startsWith("\tport_counters port 1:\t1 counters, 2 hw_counters, raw clock 1500 ns\n"));
        assertEquals("", InfoText.portCounters(Fakes.rxe(Optional.empty())), "no --counters, no section");
    }

    @Test
    void theReportEndsEachDeviceWithItsCounters() {
        DeviceInfo rxe = Fakes.rxeWithCounters(OptionalLong.empty());
        assertTrue(VerbsInfo.text(Fakes.library(), List.of(rxe), false)
                .endsWith(InfoText.gidTables(rxe) + InfoText.portCounters(rxe)));
    }

    @Test
    void librarySectionNamesVersionPathAndCapabilities() {
        assertEquals("""
                panama-verbs:\t0.1.0-TEST
                libibverbs:\tavailable (/usr/lib/libibverbs.so.1)
                capabilities:\tQP_EX QUERY_GID_EX
                missing_capabilities:\tQUERY_QP_DATA_IN_ORDER
                librdmacm:\tNOT available: librdmacm "gone"
                rdma_cm device:\tNOT usable: /dev/infiniband/rdma_cm is missing: load the rdma_ucm kernel module
                rdma_cm:\tNOT available
                """, InfoText.library(Fakes.library()));
    }

    @Test
    void librdmacmDoesNotRepeatLibibverbsCauseAndTheDeviceIsShownApart() {
        LibraryInfo noVerbs = new LibraryInfo("0.1.0-TEST", false, Optional.empty(),
                Optional.of("dlopen(\"libibverbs.so.1\") failed: no such file"), List.of(), List.of(), false,
                Optional.of("dlopen(\"libibverbs.so.1\") failed: no such file"), "/dev/infiniband/rdma_cm", Optional.empty());
        assertEquals("""
                panama-verbs:\t0.1.0-TEST
                libibverbs:\tNOT available: dlopen("libibverbs.so.1") failed: no such file
                librdmacm:\tNOT available: needs libibverbs, which is not available (above)
                rdma_cm device:\t/dev/infiniband/rdma_cm opens
                rdma_cm:\tNOT available
                """, InfoText.library(noVerbs));
        String missing = "/dev/infiniband/rdma_cm is missing: load the rdma_ucm kernel module (modprobe rdma_ucm)";
        LibraryInfo noDevice = new LibraryInfo("0.1.0-TEST", true, Optional.of("/usr/lib/libibverbs.so.1"), Optional.empty(),
                List.of(), List.of(), false, Optional.of(missing), "/dev/infiniband/rdma_cm", Optional.of(missing));
        String text = InfoText.library(noDevice);
        assertTrue(text.contains("librdmacm:\tloaded\n"), text);
        assertTrue(text.contains("rdma_cm device:\tNOT usable: " + missing + "\n"), text);
    }

    @Test
    void reportIsLibraryThenEachDeviceBlockThenItsGids() {
        DeviceInfo rxe = Fakes.rxe(Optional.empty());
        String text = VerbsInfo.text(Fakes.library(), List.of(rxe), false);
        assertEquals(InfoText.library(Fakes.library()) + "devices:\t1\n\n" + DevinfoText.format(rxe, false) + InfoText.gidTables(rxe), text);
    }

    @Test
    void optionsAreIbvDevinfosWhereTheyOverlap() {
        assertEquals(new Options(true, Optional.of("rxe0"), true, false, false), Options.parse(List.of("--json", "-d", "rxe0", "-v")));
        assertTrue(Options.parse(List.of("-c")).counters());
        assertTrue(Options.parse(List.of("--counters")).counters());
        assertEquals(Optional.of("mlx5_0"), Options.parse(List.of("--ib-dev=mlx5_0")).device());
        assertEquals(Optional.of("rxe1"), Options.parse(List.of("-drxe1")).device());
        assertEquals(new Options(false, Optional.empty(), false, false, false), Options.parse(List.of()));
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
