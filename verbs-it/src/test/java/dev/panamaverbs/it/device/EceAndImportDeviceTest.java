package dev.panamaverbs.it.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panamaverbs.values.AccessFlag;
import dev.panamaverbs.Context;
import dev.panamaverbs.values.EceOptions;
import dev.panamaverbs.values.Errno;
import dev.panamaverbs.MemoryRegion;
import dev.panamaverbs.ProtectionDomain;
import dev.panamaverbs.QueuePair;
import dev.panamaverbs.VerbsUnsupportedException;
import dev.panamaverbs.testkit.DeviceTest;
import dev.panamaverbs.testkit.RcLoopbackPair;
import dev.panamaverbs.testkit.TestDevice;
import java.lang.foreign.Arena;
import java.util.EnumSet;

/**
 * ECE ({@code ibv_query_ece}, {@code ibv_set_ece}) and the import verbs
 * ({@code ibv_import_device}, {@code ibv_import_pd}, {@code ibv_import_mr} and their unimports)
 * on the device. Each test prints what rxe did ("# EceAndImportDeviceTest: ...") and checks it:
 * the verb worked, or rxe refused it with an errno meaning "not supported".
 */
class EceAndImportDeviceTest {

    /** A refusal of {@code verb} by {@code device}: printed, naming the verb, with an errno meaning unsupported. */
    private static void refused(TestDevice device, String verb, VerbsUnsupportedException e) {
        System.out.println("# EceAndImportDeviceTest: " + device.name() + " refuses " + verb + ": " + e.getMessage());
        assertEquals(verb, e.verb());
        assertTrue(Errno.meansUnsupported(e.errno()), e.getMessage());
    }

    /** {@code ibv_query_ece} then {@code ibv_set_ece} with what it answered, on an RC queue pair. */
    @DeviceTest
    void eceIsQueriedAndSetOrRefused(TestDevice device) {
        try (RcLoopbackPair pair = RcLoopbackPair.open(device)) {
            QueuePair qp = pair.first();
            EceOptions ece;
            try {
                ece = qp.queryEce();
            } catch (VerbsUnsupportedException e) {
                refused(device, "ibv_query_ece", e);
                // A vendor id (0x02c9) so that libibverbs passes the request to the provider.
                VerbsUnsupportedException set = assertThrows(VerbsUnsupportedException.class,
                        () -> qp.setEce(new EceOptions(0x02c9, 1)));
                refused(device, "ibv_set_ece", set);
                return;
            }
            System.out.println("# EceAndImportDeviceTest: " + device.name() + " ECE " + ece);
            qp.setEce(ece);
        }
    }

    /**
     * The context's own command fd (a duplicate) imported within this process: the imported context's domain
     * and region name the same kernel objects (same handle, keys and length); closing the
     * imported tree unimports them and leaves the originals working.
     */
    @DeviceTest
    void aContextIsImportedFromItsCommandFdWithItsDomainAndRegion(Context context, TestDevice device) {
        try (ProtectionDomain pd = context.allocateProtectionDomain(); Arena arena = Arena.ofConfined()) {
            MemoryRegion region = pd.register(arena.allocate(8192, 4096), EnumSet.of(AccessFlag.LOCAL_WRITE,
                    AccessFlag.REMOTE_READ));
            assertThrows(IllegalArgumentException.class, () -> Context.importFrom(-1));
            Context imported;
            try {
                imported = context.importDuplicate();
            } catch (VerbsUnsupportedException e) {
                refused(device, "ibv_import_device", e);
                return;
            }
            try (imported) {
                assertEquals(context.device().name(), imported.device().name());
                ProtectionDomain importedPd = imported.importProtectionDomain(pd.kernelHandle());
                assertTrue(importedPd.isImported());
                assertEquals(pd.kernelHandle(), importedPd.kernelHandle());
                MemoryRegion importedMr = importedPd.importMemoryRegion(region.kernelHandle());
                assertTrue(importedMr.isImported());
                assertEquals(region.lkey(), importedMr.lkey());
                assertEquals(region.rkey(), importedMr.rkey());
                assertEquals(region.length(), importedMr.length());
                assertEquals(region.memoryAddress(), importedMr.memoryAddress());
                System.out.println("# EceAndImportDeviceTest: " + device.name() + " imported context fd "
                        + imported.commandFd() + ", " + importedPd + ", " + importedMr);
            }
            assertTrue(context.commandFd() >= 0, "the original context keeps its own fd");
            pd.register(arena.allocate(4096, 4096), EnumSet.of(AccessFlag.LOCAL_WRITE)).close();
        }
    }
}
