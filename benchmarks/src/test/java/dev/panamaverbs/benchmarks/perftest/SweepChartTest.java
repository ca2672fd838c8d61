package dev.panamaverbs.benchmarks.perftest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The sweep's medians.csv as the chart reads it, and a chart drawn from it (headless). */
class SweepChartTest {
    private static final List<String> CSV = List.of(
            "test,bytes,metric,C_C,JAVA_JAVA,JAVA_CLIENT_C_SERVER,C_CLIENT_JAVA_SERVER",
            "write_lat,2,LATENCY,800.0,830.0,810.0,",
            "write_lat,64,LATENCY,820.0,850.0,845.0,900.0",
            "write_bw,64,BANDWIDTH,0.2,0.19,0.2,0.21",
            "write_bw,64,MESSAGE_RATE,0.003,0.0029,0.003,0.0031");

    @Test
    void mediansAndRatios() {
        SweepMedians medians = SweepMedians.parse(CSV);
        assertEquals(List.of("write_lat", "write_bw"), medians.tests());
        SweepMedians.Line line = medians.of("write_lat", "LATENCY").get(1);
        assertEquals(64, line.bytes());
        assertEquals(850.0 / 820.0, SweepMedians.ratio(line, "JAVA_JAVA").getAsDouble(), 1e-12);
        assertTrue(SweepMedians.ratio(medians.of("write_lat", "LATENCY").getFirst(), "C_CLIENT_JAVA_SERVER").isEmpty());
        assertThrows(IllegalArgumentException.class, () -> SweepMedians.parse(List.of("a,b")));
        assertThrows(IllegalArgumentException.class, () -> SweepMedians.parse(List.of(CSV.getFirst(), "write_lat,2,LATENCY,1")));
    }

    @Test
    void drawsOnePngWithAPanelPerTestAndTheRatios(@TempDir Path dir) throws Exception {
        System.setProperty("java.awt.headless", "true");
        Path png = dir.resolve("chart.png");
        SweepChart.write(SweepMedians.parse(CSV), png);
        BufferedImage image = ImageIO.read(png.toFile());
        assertEquals(2 * 640, image.getWidth());
        assertEquals(2 * 400, image.getHeight(), "two tests, two ratio panels: two rows of two");
    }
}
