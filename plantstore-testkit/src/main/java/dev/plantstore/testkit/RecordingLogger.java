package dev.plantstore.testkit;

import java.util.List;
import java.util.ResourceBundle;
import java.util.concurrent.CopyOnWriteArrayList;

/** A {@link System.Logger} that keeps every line given to it, for a test that holds the lines a class logs. */
public final class RecordingLogger implements System.Logger {

    /** One line: its level, its text (a format's pattern, unformatted) and what was thrown with it, if anything. */
    public record Line(Level level, String message, Throwable thrown) {
        @Override
        public String toString() {
            return level + " " + message;
        }
    }

    private final List<Line> lines = new CopyOnWriteArrayList<>();

    /** The lines so far, oldest first. */
    public List<Line> lines() {
        return List.copyOf(lines);
    }

    /** The lines so far as {@code LEVEL message}, oldest first. */
    public List<String> texts() {
        return lines.stream().map(Line::toString).toList();
    }

    @Override
    public String getName() {
        return "recording";
    }

    @Override
    public boolean isLoggable(Level level) {
        return true;
    }

    @Override
    public void log(Level level, ResourceBundle bundle, String message, Throwable thrown) {
        lines.add(new Line(level, message, thrown));
    }

    @Override
    public void log(Level level, ResourceBundle bundle, String format, Object... params) {
        lines.add(new Line(level, format, null));
    }
}
