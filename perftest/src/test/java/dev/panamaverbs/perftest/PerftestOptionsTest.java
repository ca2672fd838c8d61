package dev.panamaverbs.perftest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panamaverbs.perftest.PerftestOptions.Connection;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** perftest's option names, defaults and refusals for the common subset. */
class PerftestOptionsTest {
    @Test
    void latencyDefaultsAsPerftest() {
        PerftestOptions o = PerftestOptions.parse("write_lat");
        assertTrue(o.isServer());
        assertNull(o.server());
        assertEquals(18515, o.port());
        assertEquals(2, o.size());
        assertEquals(1000, o.iterations());
        assertEquals(1, o.txDepth());
        assertEquals(Connection.RC, o.connection());
        assertEquals(PerftestOptions.AUTO_GID, o.gidIndex());
        assertEquals(Duration.ofSeconds(60), o.timeout());
    }

    @Test
    void bandwidthDefaultsAsPerftest() {
        PerftestOptions o = PerftestOptions.parse("ib_send_bw", "10.0.0.2");
        assertFalse(o.isServer());
        assertEquals("10.0.0.2", o.server());
        assertEquals(65536, o.size());
        assertEquals(5000, o.iterations());
        assertEquals(128, o.txDepth());
        assertEquals(100, o.cqModeration());
        assertEquals(8, PerftestOptions.parse("atomic_bw").size());
    }

    @Test
    void theCommonSubset() {
        PerftestOptions o = PerftestOptions.parse("write_bw", "-d", "rxe1", "-i", "1", "-x", "3", "-s", "4096", "-n", "200",
                "-t", "64", "-l", "1", "-Q", "10", "-c", "UC", "-m", "1024", "-F", "--report_gbits", "-p", "18600",
                "--timeout=30", "host");
        assertEquals("rxe1", o.device());
        assertEquals(3, o.gidIndex());
        assertEquals(4096, o.size());
        assertEquals(200, o.iterations());
        assertEquals(64, o.txDepth());
        assertEquals(10, o.cqModeration());
        assertEquals(Connection.UC, o.connection());
        assertEquals(1024, o.mtu());
        assertTrue(o.reportGbits());
        assertEquals(18600, o.port());
        assertEquals(Duration.ofSeconds(30), o.timeout());
        assertTrue(PerftestOptions.parse("send_lat", "-a").allSizes());
        assertEquals(5, PerftestOptions.parse("write_bw", "-D", "5").durationSeconds());
        assertTrue(PerftestOptions.parse("send_bw", "-R").rdmaCm());
    }

    @Test
    void refusalsAsPerftest() {
        assertThrows(IllegalArgumentException.class, () -> PerftestOptions.parse("write_lat", "-c", "UD"));
        assertThrows(IllegalArgumentException.class, () -> PerftestOptions.parse("read_bw", "-c", "UC"));
        assertThrows(IllegalArgumentException.class, () -> PerftestOptions.parse("atomic_lat", "-s", "16"));
        assertThrows(IllegalArgumentException.class, () -> PerftestOptions.parse("write_lat", "-m", "1000"));
        assertThrows(IllegalArgumentException.class, () -> PerftestOptions.parse("write_lat", "-n", "4"));
        assertThrows(IllegalArgumentException.class, () -> PerftestOptions.parse("write_lat", "-a", "-D", "3"));
        assertThrows(IllegalArgumentException.class, () -> PerftestOptions.parse("nope"));
        IllegalArgumentException uc = assertThrows(IllegalArgumentException.class,
                () -> PerftestOptions.parse("write_bw", "-R", "-c", "UC"));
        assertEquals("UC is not supported in librdmacm", uc.getMessage());
        assertThrows(IllegalArgumentException.class, () -> PerftestOptions.parse("send_bw", "-R", "-c", "UD"));
    }

    @Test
    void postListAsPerftest() {
        PerftestOptions o = PerftestOptions.parse("write_bw", "-l", "4", "-n", "1000");
        assertEquals(4, o.postList());
        assertEquals(4, o.cqModeration(), "Post List requested - CQ moderation will be the size of the post list");
        assertEquals(2, PerftestOptions.parse("send_bw", "-l", "8", "-Q", "2").cqModeration(), "-Q given and dividing the list");
        assertEquals(4, PerftestOptions.parse("write_bw", "-l", "4", "-D", "3").postList(), "duration mode: no multiple needed");
        assertEquals("Post list is supported in BW tests only",
                assertThrows(IllegalArgumentException.class, () -> PerftestOptions.parse("write_lat", "-l", "4")).getMessage());
        assertEquals("Number of iterations must be a multiple of post list size",
                assertThrows(IllegalArgumentException.class, () -> PerftestOptions.parse("write_bw", "-l", "3", "-n", "1000"))
                        .getMessage());
        assertEquals("Number of iterations must be a multiple of post list size",
                assertThrows(IllegalArgumentException.class,
                        () -> PerftestOptions.parse("write_bw", "-l", "4", "-n", "1000", "--sizes=2,64:30")).getMessage());
        assertEquals("Post list size must be a multiple of CQ moderation",
                assertThrows(IllegalArgumentException.class, () -> PerftestOptions.parse("write_bw", "-l", "4", "-Q", "3"))
                        .getMessage());
        IllegalArgumentException deep = assertThrows(IllegalArgumentException.class,
                () -> PerftestOptions.parse("write_bw", "-l", "64", "-t", "32", "-n", "6400"));
        assertTrue(deep.getMessage().contains("no list would ever fit the send queue"), deep.getMessage());
    }

    @Test
    void sizesMakeOneRunPerSizeOnConsecutivePorts() {
        PerftestOptions o = PerftestOptions.parse("write_bw", "-n", "1000", "-p", "18700", "--sizes=2,64:300,65536:10", "host");
        assertEquals(3, o.series().size());
        PerftestOptions first = o.seriesRun(0);
        assertEquals(2, first.size());
        assertEquals(1000, first.iterations());
        assertEquals(18700, first.port());
        assertTrue(first.series().isEmpty());
        PerftestOptions last = o.seriesRun(2);
        assertEquals(65536, last.size());
        assertEquals(10, last.iterations());
        assertEquals(18702, last.port());
        assertEquals(10, last.txDepth(), "the tx depth is cut to the run's iterations, as perftest cuts it to -n");
        assertEquals(10, last.cqModeration());
        assertEquals(128, o.seriesRun(1).txDepth());
    }

    @Test
    void sizesRefusals() {
        assertThrows(IllegalArgumentException.class, () -> PerftestOptions.parse("write_lat", "--sizes=2,x"));
        assertThrows(IllegalArgumentException.class, () -> PerftestOptions.parse("write_lat", "--sizes=2:4"));
        assertThrows(IllegalArgumentException.class, () -> PerftestOptions.parse("write_lat", "--sizes=2,,4"));
        assertThrows(IllegalArgumentException.class, () -> PerftestOptions.parse("write_lat", "--sizes=2:1:1"));
        assertThrows(IllegalArgumentException.class, () -> PerftestOptions.parse("write_lat", "-a", "--sizes=2,4"));
        assertThrows(IllegalArgumentException.class, () -> PerftestOptions.parse("atomic_lat", "--sizes=8"));
        assertThrows(IllegalArgumentException.class, () -> PerftestOptions.parse("write_lat", "-p", "65535", "--sizes=2,4"));
    }
}
