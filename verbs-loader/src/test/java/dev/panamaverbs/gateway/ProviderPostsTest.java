package dev.panamaverbs.gateway;

import dev.panamaverbs.ffm.ibv_recv_wr;
import dev.panamaverbs.ffm.ibv_send_wr;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;

import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The table of providers whose posts may skip the thread-state transition, under each identity a
 * device can show (a sysfs tree of driver links, a vendor id), the property's settings, and the
 * fake provider's posts through the invoker each decision picks.
 */
class ProviderPostsTest extends ProcessFakeProviderTest {
    private static final long MELLANOX = 0x02c9;
    private static final long AMAZON = 0x1d0f;
    private static final long RXE = 0xffffff;
    private static final long SIW = 0x626d74;

    private static long qp;
    private static long srq;

    @TempDir
    Path sysfs;

    @BeforeAll
    static void queues() {
        qp = fake.qp(context);
        srq = fake.srq(context);
    }

    /** {@code sysfs/<name>/device/driver -> ../../../bus/pci/drivers/<driver>}; no link for a null driver. */
    private void device(String name, String driver) throws IOException {
        Path dir = Files.createDirectories(sysfs.resolve(name).resolve("device"));
        if (driver != null) {
            Files.createSymbolicLink(dir.resolve("driver"), Path.of("../../../bus/pci/drivers/" + driver));
        }
    }

    private boolean decide(String property, String name, long vendorId) {
        return ProviderPosts.critical(ProviderPosts.mode(property), ProviderPosts.driver(sysfs, name), vendorId);
    }

    @Test
    void mlx5AndEfaPostWithoutTheTransitionWhateverTheirName() throws IOException {
        device("rocep1s0f0", "mlx5_core"); // udev's name for a ConnectX port
        device("efa_0", "efa");
        assertEquals("mlx5_core", ProviderPosts.driver(sysfs, "rocep1s0f0"));
        assertTrue(decide(null, "rocep1s0f0", MELLANOX));
        assertEquals("mlx5", ProviderPosts.provider("mlx5_core", MELLANOX).name());
        assertTrue(decide("auto", "efa_0", AMAZON));
        assertEquals("efa", ProviderPosts.provider("efa", AMAZON).name());
    }

    @Test
    void rxeSiwAndUnknownProvidersKeepThePlainPosts() throws IOException {
        device("rxe0", null);       // a software device: no driver link
        device("siw0", null);
        device("rxe1", "mlx5_core"); // older kernels: rxe's device link is its netdev's parent
        device("hfi1_0", "hfi1");
        assertNull(ProviderPosts.driver(sysfs, "rxe0"));
        assertFalse(decide(null, "rxe0", RXE));
        assertFalse(decide(null, "siw0", SIW));
        assertFalse(decide(null, "rxe1", RXE), "the vendor id keeps rxe over a ConnectX parent out");
        assertFalse(decide(null, "hfi1_0", 0x1175));
        assertFalse(decide(null, "absent", MELLANOX), "an unreadable driver keeps the plain posts");
        assertFalse(decide(null, "rocep1s0f0", AMAZON), "driver and vendor must name the same provider");
    }

    @Test
    void thePropertyTurnsItOffOrForcesItOn() throws IOException {
        device("mlx5_0", "mlx5_core");
        device("rxe0", null);
        assertFalse(decide("false", "mlx5_0", MELLANOX));
        assertFalse(decide("OFF", "mlx5_0", MELLANOX));
        assertTrue(decide("true", "rxe0", RXE));
        assertTrue(decide("on", "rxe0", RXE));
        assertEquals(ProviderPosts.Mode.AUTO, ProviderPosts.mode(""));
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class, () -> ProviderPosts.mode("yes"));
        assertTrue(bad.getMessage().startsWith(ProviderPosts.PROPERTY + "=yes"), bad.getMessage());
    }

    @Test
    void theFakeProvidersPostsArriveThroughBothInvokers() {
        MemorySegment sendWr = arena.allocate(ibv_send_wr.LAYOUT);
        MemorySegment recvWr = arena.allocate(ibv_recv_wr.LAYOUT);
        MemorySegment badWr = arena.allocate(JAVA_LONG);
        MemorySegment qpSegment = MemorySegment.ofAddress(qp).reinterpret(512);
        MemorySegment srqSegment = MemorySegment.ofAddress(srq).reinterpret(512);
        for (boolean critical : new boolean[] {false, true}) {
            fake.reset();
            assertEquals(0, OpsTable.postSend(OpsTable.resolvePostSend(qp), qpSegment, sendWr, badWr, critical));
            assertCall("post_send", qp, sendWr);
            assertEquals(0, OpsTable.postRecv(OpsTable.resolvePostRecv(qp), qpSegment, recvWr, badWr, critical));
            assertCall("post_recv", qp, recvWr);
            assertEquals(0, OpsTable.postSrqRecv(OpsTable.resolvePostSrqRecv(srq), srqSegment, recvWr, badWr, critical));
            assertCall("post_srq_recv", srq, recvWr);
        }
        assertEquals(0, OpsTablePosts.postSendCritical(OpsTable.resolvePostSend(qp), qp, sendWr.address(), badWr.address()));
        assertCall("post_send", qp, sendWr);
        assertEquals(0, OpsTablePosts.postRecvCritical(OpsTable.resolvePostRecv(qp), qp, recvWr.address(), badWr.address()));
        assertCall("post_recv", qp, recvWr);
        assertEquals(0, OpsTablePosts.postSrqRecvCritical(OpsTable.resolvePostSrqRecv(srq), srq, recvWr.address(),
                badWr.address()));
        assertCall("post_srq_recv", srq, recvWr);
        fake.nextReturn(12);
        assertEquals(12, OpsTable.postSend(OpsTable.resolvePostSend(qp), qpSegment, sendWr, badWr, true),
                "the provider's errno comes back through the critical downcall");
        fake.nextReturn(0);
    }

    private static void assertCall(String op, long queue, MemorySegment wr) {
        assertEquals(op, fake.lastOp());
        assertEquals(queue, fake.arg(0));
        assertEquals(wr.address(), fake.arg(1));
    }
}
