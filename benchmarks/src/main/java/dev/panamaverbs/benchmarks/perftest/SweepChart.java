package dev.panamaverbs.benchmarks.perftest;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import javax.imageio.ImageIO;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.LogarithmicAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * The chart of the two-host perftest sweep: {@code SweepChart MEDIANS_CSV PNG}. One PNG with a
 * panel per test (latency for {@code *_lat}, bandwidth for {@code *_bw}, against the message size,
 * both axes logarithmic, one line per pairing) and, below, the Java pairings' ratios to C/C
 * against the size. Drawn headless with JFreeChart (see benchmarks/README.md for why it is here).
 * {@code ./verbs bench --perftest} runs it on the host after the sweep.
 */
public final class SweepChart {
    private static final int PANEL_WIDTH = 640;
    private static final int PANEL_HEIGHT = 400;
    private static final Map<String, String> LABELS = Map.of("C_C", "C/C", "JAVA_JAVA", "Java/Java",
            "JAVA_CLIENT_C_SERVER", "Java client / C server", "C_CLIENT_JAVA_SERVER", "C client / Java server");
    private static final Map<String, Color> COLOURS = Map.of("C_C", new Color(0x33, 0x33, 0x33), "JAVA_JAVA",
            new Color(0xd6, 0x27, 0x28), "JAVA_CLIENT_C_SERVER", new Color(0x1f, 0x77, 0xb4), "C_CLIENT_JAVA_SERVER",
            new Color(0x2c, 0xa0, 0x2c));

    private SweepChart() {}

    /**
     * Reads the medians and writes the PNG.
     *
     * @param args the medians.csv and the PNG to write
     * @throws IOException when either file cannot be read or written
     */
    public static void main(String[] args) throws IOException {
        if (args.length != 2) {
            System.err.println("usage: SweepChart MEDIANS_CSV PNG");
            System.exit(2);
        }
        System.setProperty("java.awt.headless", "true");
        write(SweepMedians.read(Path.of(args[0])), Path.of(args[1]));
        System.out.println("chart: " + args[1]);
    }

    /** Draws {@code medians} into {@code png}. */
    static void write(SweepMedians medians, Path png) throws IOException {
        List<JFreeChart> panels = new ArrayList<>();
        for (String test : medians.tests()) {
            boolean latency = test.endsWith("_lat");
            String metric = latency ? "LATENCY" : "BANDWIDTH";
            panels.add(panel(test + (latency ? ": latency (t_typical)" : ": bandwidth (BW average)"),
                    latency ? "µs" : "MB/s", medians, test, metric, false));
        }
        for (String kind : List.of("_lat", "_bw")) {
            List<String> tests = medians.tests().stream().filter(t -> t.endsWith(kind)).toList();
            if (!tests.isEmpty()) {
                panels.add(ratioPanel(kind.equals("_lat") ? "latency ÷ C/C (lower is better)" : "bandwidth ÷ C/C (higher is better)",
                        medians, tests, kind.equals("_lat") ? "LATENCY" : "BANDWIDTH"));
            }
        }
        int columns = 2;
        int rows = (panels.size() + columns - 1) / columns;
        BufferedImage image = new BufferedImage(columns * PANEL_WIDTH, rows * PANEL_HEIGHT, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, image.getWidth(), image.getHeight());
        for (int i = 0; i < panels.size(); i++) {
            panels.get(i).draw(g, new java.awt.geom.Rectangle2D.Double(i % columns * PANEL_WIDTH, i / columns * PANEL_HEIGHT,
                    PANEL_WIDTH, PANEL_HEIGHT));
        }
        g.dispose();
        Path parent = png.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        ImageIO.write(image, "png", png.toFile());
    }

    private static JFreeChart panel(String title, String unit, SweepMedians medians, String test, String metric, boolean ratio) {
        XYSeriesCollection data = new XYSeriesCollection();
        List<String> keys = new ArrayList<>();
        for (String pairing : medians.pairings()) {
            XYSeries series = new XYSeries(LABELS.getOrDefault(pairing, pairing));
            for (SweepMedians.Line line : medians.of(test, metric)) {
                double value = line.medians().get(pairing);
                if (!Double.isNaN(value) && value > 0) {
                    series.add(line.bytes(), value);
                }
            }
            data.addSeries(series);
            keys.add(pairing);
        }
        JFreeChart chart = ChartFactory.createXYLineChart(title, "message size [bytes]", unit, data, PlotOrientation.VERTICAL,
                true, false, false);
        XYPlot plot = chart.getXYPlot();
        plot.setDomainAxis(sizeAxis());
        // 1-2-..-9 ticks per decade, labelled as plain numbers (LogAxis would write 10^2.9).
        LogarithmicAxis values = new LogarithmicAxis(unit);
        values.setAutoRangeNextLogFlag(false);
        plot.setRangeAxis(values);
        style(chart, keys, false);
        return chart;
    }

    private static JFreeChart ratioPanel(String title, SweepMedians medians, List<String> tests, String metric) {
        XYSeriesCollection data = new XYSeriesCollection();
        List<String> keys = new ArrayList<>();
        for (String test : tests) {
            for (String pairing : medians.pairings()) {
                if (pairing.equals(SweepMedians.C_C)) {
                    continue;
                }
                XYSeries series = new XYSeries(test + " " + LABELS.getOrDefault(pairing, pairing));
                for (SweepMedians.Line line : medians.of(test, metric)) {
                    OptionalDouble ratio = SweepMedians.ratio(line, pairing);
                    if (ratio.isPresent()) {
                        series.add(line.bytes(), ratio.getAsDouble());
                    }
                }
                data.addSeries(series);
                keys.add(pairing + (test.startsWith("send") ? "/dashed" : ""));
            }
        }
        JFreeChart chart = ChartFactory.createXYLineChart(title, "message size [bytes]", "Java pairing ÷ C/C", data,
                PlotOrientation.VERTICAL, true, false, false);
        XYPlot plot = chart.getXYPlot();
        plot.setDomainAxis(sizeAxis());
        NumberAxis ratios = (NumberAxis) plot.getRangeAxis();
        ratios.setAutoRangeIncludesZero(false);
        style(chart, keys, true);
        return chart;
    }

    private static LogAxis sizeAxis() {
        LogAxis sizes = new LogAxis("message size [bytes]");
        sizes.setBase(2);
        sizes.setSmallestValue(1);
        sizes.setNumberFormatOverride(new java.text.DecimalFormat("0"));
        return sizes;
    }

    /** One colour per pairing; a dashed line for send_* in the ratio panels. */
    private static void style(JFreeChart chart, List<String> keys, boolean dashes) {
        chart.getTitle().setFont(new Font(Font.SANS_SERIF, Font.BOLD, 14));
        XYPlot plot = chart.getXYPlot();
        plot.setBackgroundPaint(Color.WHITE);
        plot.setDomainGridlinePaint(Color.LIGHT_GRAY);
        plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
        XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, true);
        for (int i = 0; i < keys.size(); i++) {
            String key = keys.get(i);
            boolean dashed = dashes && key.endsWith("/dashed");
            String pairing = dashed ? key.substring(0, key.length() - "/dashed".length()) : key;
            renderer.setSeriesPaint(i, COLOURS.getOrDefault(pairing, Color.GRAY));
            renderer.setSeriesStroke(i, dashed ? new BasicStroke(2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f,
                    new float[] {6f, 4f}, 0f) : new BasicStroke(2f));
        }
        plot.setRenderer(renderer);
    }
}
