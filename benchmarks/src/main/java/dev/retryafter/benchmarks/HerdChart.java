package dev.retryafter.benchmarks;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.annotations.XYTextAnnotation;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.CombinedDomainXYPlot;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.StandardXYBarPainter;
import org.jfree.chart.renderer.xy.XYBarRenderer;
import org.jfree.chart.ui.RectangleAnchor;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * Renders the herd: one panel per client, retries and late first requests per 10 ms against
 * time since the first rejection, all panels on the same scales so their heights compare.
 */
final class HerdChart {

	private static final Color[] COLORS = { new Color(0x1b9e77), new Color(0xd95f02), new Color(0x7570b3),
			new Color(0xe7298a), new Color(0x66a61e), new Color(0xe6ab02) };

	private HerdChart() {
	}

	static void render(Path file, int callers, int status, String arrival, int retryAfterSeconds, int runs,
			Map<String, int[]> timelines) {
		int peak = 1;
		int length = 1;
		for (int[] timeline : timelines.values()) {
			length = Math.max(length, timeline.length);
			for (int count : timeline) {
				peak = Math.max(peak, count);
			}
		}
		NumberAxis time = new NumberAxis("ms after the first " + status
				+ " was sent (bars: retries and late first requests arriving per 10 ms)");
		time.setRange(0, Math.max(retryAfterSeconds * 1000 + 500, length * 10 + 50));
		CombinedDomainXYPlot combined = new CombinedDomainXYPlot(time);
		combined.setGap(12);
		int index = 0;
		for (Map.Entry<String, int[]> entry : timelines.entrySet()) {
			int[] timeline = entry.getValue();
			XYSeries series = new XYSeries(entry.getKey());
			for (int bucket = 0; bucket < timeline.length; bucket++) {
				series.add(bucket * 10 + 5, timeline[bucket]);
			}
			XYSeriesCollection dataset = new XYSeriesCollection(series);
			dataset.setIntervalWidth(10);
			XYBarRenderer renderer = new XYBarRenderer();
			renderer.setBarPainter(new StandardXYBarPainter());
			renderer.setShadowVisible(false);
			renderer.setSeriesPaint(0, COLORS[index % COLORS.length]);
			renderer.setDefaultSeriesVisibleInLegend(false);
			NumberAxis retries = new NumberAxis("requests");
			retries.setRange(0, peak * 1.1);
			retries.setStandardTickUnits(NumberAxis.createIntegerTickUnits());
			XYPlot plot = new XYPlot(dataset, null, retries, renderer);
			plot.setBackgroundPaint(Color.WHITE);
			plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
			plot.setDomainGridlinePaint(Color.LIGHT_GRAY);
			ValueMarker boundary = new ValueMarker(retryAfterSeconds * 1000.0, Color.RED, new BasicStroke(1.5f));
			boundary.setLabel("Retry-After");
			boundary.setLabelFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
			boundary.setLabelAnchor(RectangleAnchor.TOP_RIGHT);
			boundary.setLabelTextAnchor(TextAnchor.TOP_LEFT);
			plot.addDomainMarker(boundary);
			XYTextAnnotation label = new XYTextAnnotation(
					entry.getKey(), 20, peak * 0.95);
			label.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 13));
			label.setTextAnchor(TextAnchor.TOP_LEFT);
			plot.addAnnotation(label);
			combined.add(plot, 1);
			index++;
		}
		String title = "Herd of " + callers + " callers (" + arrival + ") after one " + status
				+ " each with Retry-After: " + retryAfterSeconds
				+ ((runs > 1) ? " (per client, the run with the median peak of " + runs + ")" : "");
		JFreeChart chart = new JFreeChart(title, new Font(Font.SANS_SERIF, Font.BOLD, 15), combined, false);
		chart.setBackgroundPaint(Color.WHITE);
		try {
			Path parent = file.toAbsolutePath().getParent();
			if (parent != null) {
				Files.createDirectories(parent);
			}
			ChartUtils.saveChartAsPNG(file.toFile(), chart, 1100, 150 * Math.max(1, timelines.size()) + 110);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
