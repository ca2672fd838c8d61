package dev.panamaverbs.examples.pingpong;

import dev.panamaverbs.values.Mtu;
import java.time.Duration;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** rc_pingpong's options and defaults. */
class PingPongOptionsTest {
    @Test
    void defaultsAreRcPingpongs() {
        PingPongOptions options = PingPongOptions.parse();
        assertTrue(options.isServer());
        assertEquals(new PingPongOptions(null, 18515, null, 1, 4096, Mtu.MTU_1024, 500, 1000, 0,
                PingPongOptions.NO_GID, false, Duration.ofSeconds(60)), options);
    }

    @Test
    void everyOptionShortAndLong() {
        PingPongOptions options = PingPongOptions.parse("-p", "9999", "-d", "rxe0", "-i", "1", "-s", "64", "-m", "2048",
                "-r", "10", "-n", "5", "-l", "3", "-g", "1", "-c", "-T", "7", "10.0.2.15");
        assertEquals(new PingPongOptions("10.0.2.15", 9999, "rxe0", 1, 64, Mtu.MTU_2048, 10, 5, 3, 1, true, Duration.ofSeconds(7)),
                options);
        assertEquals(options, PingPongOptions.parse("--port=9999", "--ib-dev=rxe0", "--ib-port=1", "--size=64",
                "--mtu=2048", "--rx-depth=10", "--iters=5", "--sl=3", "--gid-idx=1", "--chk", "--timeout=7", "10.0.2.15"));
    }

    @Test
    void badValuesAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> PingPongOptions.parse("-m", "1500"));
        assertThrows(IllegalArgumentException.class, () -> PingPongOptions.parse("-p", "70000"));
        assertThrows(IllegalArgumentException.class, () -> PingPongOptions.parse("-i", "0"));
        assertThrows(IllegalArgumentException.class, () -> PingPongOptions.parse("-e"));
        assertThrows(IllegalArgumentException.class, () -> PingPongOptions.parse("a", "b"));
        assertThrows(IllegalArgumentException.class, () -> PingPongOptions.parse("-n", "ten"));
    }
}
