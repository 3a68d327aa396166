package dev.plantstore.bench;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javax.imageio.ImageIO;

/**
 * Throughput against connections as a PNG: one panel for creates, one for deletes; a line per server through the
 * median of its runs, a bar from the slowest to the fastest run. The baseline's constant GET appears in both.
 */
final class Plot {

    private static final int WIDTH = 1000;
    private static final int PANEL_HEIGHT = 420;
    private static final int LEFT = 90;
    private static final int RIGHT = 230;
    private static final int TOP = 50;
    private static final int BOTTOM = 50;
    private static final Color[] COLORS = {
        new Color(0x55, 0x55, 0x55), new Color(0x1f, 0x77, 0xb4), new Color(0xd6, 0x27, 0x28),
        new Color(0x2c, 0xa0, 0x2c), new Color(0x94, 0x67, 0xbd), new Color(0xff, 0x7f, 0x0e)
    };

    private record Series(String label, List<Spread> points, boolean dashed) {
    }

    private Plot() {
    }

    static void write(Results results, Path png) throws IOException {
        var image = new BufferedImage(WIDTH, 2 * PANEL_HEIGHT, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, WIDTH, 2 * PANEL_HEIGHT);
        List<Integer> connections = new ArrayList<>(Report.connectionCounts(results));
        String cores = results.environment.getOrDefault("cores", "?");
        panel(g, 0, "Creates: POST /plants (" + cores + " cores, wrk on the same machine)", connections,
                series(results, "create", connections));
        panel(g, PANEL_HEIGHT, "Deletes: DELETE /plants/{id}", connections, series(results, "delete", connections));
        g.dispose();
        ImageIO.write(image, "png", png.toFile());
    }

    private static List<Series> series(Results results, String operation, List<Integer> connections) {
        List<Series> series = new ArrayList<>();
        series.add(line(results, "baseline", "get", "baseline: constant GET", connections, true));
        for (String target : Report.targets(results)) {
            String label = target.equals("baseline") ? "baseline: naive " + operation : target + " store";
            series.add(line(results, target, operation, label, connections, target.equals("baseline")));
        }
        return series;
    }

    private static Series line(Results results, String target, String operation, String label,
                               List<Integer> connections, boolean dashed) {
        List<Spread> points = new ArrayList<>();
        for (int count : connections) {
            List<Sample> samples = Report.select(results, target, operation, count);
            points.add(samples.isEmpty() ? null : Report.spread(samples, WrkResult::requestsPerSecond));
        }
        return new Series(label, points, dashed);
    }

    private static void panel(Graphics2D g, int top, String title, List<Integer> connections, List<Series> series) {
        int plotTop = top + TOP;
        int plotBottom = top + PANEL_HEIGHT - BOTTOM;
        int plotRight = WIDTH - RIGHT;
        double yMax = series.stream().flatMap(s -> s.points().stream())
                .filter(p -> p != null).mapToDouble(Spread::max).max().orElse(1) * 1.1;
        double step = niceStep(yMax / 6);

        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 16));
        g.setColor(Color.BLACK);
        g.drawString(title, LEFT, top + 30);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        for (double y = 0; y <= yMax; y += step) {
            int py = yPixel(y, yMax, plotTop, plotBottom);
            g.setColor(new Color(0xe0, 0xe0, 0xe0));
            g.drawLine(LEFT, py, plotRight, py);
            g.setColor(Color.DARK_GRAY);
            g.drawString(String.format(Locale.ROOT, "%,.0f", y), 10, py + 4);
        }
        for (int i = 0; i < connections.size(); i++) {
            int px = xPixel(i, connections.size(), plotRight);
            g.drawString(connections.get(i) + "", px - 8, plotBottom + 20);
        }
        g.drawString("connections", (LEFT + plotRight) / 2 - 30, plotBottom + 40);
        g.drawString("req/s", 10, plotTop - 12);
        g.setColor(Color.BLACK);
        g.drawLine(LEFT, plotBottom, plotRight, plotBottom);
        g.drawLine(LEFT, plotTop, LEFT, plotBottom);

        for (int s = 0; s < series.size(); s++) {
            Series line = series.get(s);
            Color color = COLORS[s % COLORS.length];
            g.setColor(color);
            g.setStroke(line.dashed()
                    ? new BasicStroke(2, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 1, new float[] {6, 4}, 0)
                    : new BasicStroke(2));
            int previousX = -1;
            int previousY = -1;
            for (int i = 0; i < line.points().size(); i++) {
                Spread point = line.points().get(i);
                if (point == null) {
                    continue;
                }
                int px = xPixel(i, connections.size(), plotRight);
                int py = yPixel(point.median(), yMax, plotTop, plotBottom);
                if (previousX >= 0) {
                    g.drawLine(previousX, previousY, px, py);
                }
                g.fillOval(px - 4, py - 4, 8, 8);
                g.drawLine(px, yPixel(point.min(), yMax, plotTop, plotBottom), px, yPixel(point.max(), yMax, plotTop, plotBottom));
                previousX = px;
                previousY = py;
            }
            g.setStroke(new BasicStroke(2));
            int legendY = plotTop + 10 + s * 22;
            g.drawLine(plotRight + 20, legendY, plotRight + 45, legendY);
            g.setColor(Color.BLACK);
            g.drawString(line.label(), plotRight + 52, legendY + 4);
        }
        g.setStroke(new BasicStroke(1));
    }

    private static int xPixel(int index, int count, int plotRight) {
        int margin = 40;
        return count == 1 ? (LEFT + plotRight) / 2 : LEFT + margin + index * (plotRight - LEFT - 2 * margin) / (count - 1);
    }

    private static int yPixel(double value, double yMax, int plotTop, int plotBottom) {
        return plotBottom - (int) Math.round(value / yMax * (plotBottom - plotTop));
    }

    private static double niceStep(double raw) {
        double magnitude = Math.pow(10, Math.floor(Math.log10(raw)));
        for (double factor : new double[] {1, 2, 2.5, 5, 10}) {
            if (factor * magnitude >= raw) {
                return factor * magnitude;
            }
        }
        return 10 * magnitude;
    }
}
