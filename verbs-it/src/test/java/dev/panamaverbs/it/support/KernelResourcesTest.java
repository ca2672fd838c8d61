package dev.panamaverbs.it.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Parsing of {@code rdma resource show} summaries (no device needed). */
class KernelResourcesTest {
    private static final String OUTPUT = """
            0: mlx5_0: pd 7 cq 9 qp 4 cm_id 0 mr 12 ctx 3 srq 1
            1: rxe0: pd 2 cq 3 qp 1 cm_id 0 mr 2 ctx 1 srq 0
            """;

    @Test
    void readsTheLineOfTheNamedDevice() {
        Map<String, Integer> counts = KernelResources.parse(OUTPUT, "rxe0").orElseThrow();
        assertEquals(Map.of("pd", 2, "cq", 3, "qp", 1, "cm_id", 0, "mr", 2, "ctx", 1, "srq", 0), counts);
        assertEquals(12, KernelResources.parse(OUTPUT, "mlx5_0").orElseThrow().get("mr"));
    }

    @Test
    void anUnlistedDeviceIsEmpty() {
        assertTrue(KernelResources.parse(OUTPUT, "rxe1").isEmpty());
        assertTrue(KernelResources.parse("", "rxe0").isEmpty());
    }
}
