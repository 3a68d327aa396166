package dev.plantstore.http;

import dev.plantstore.testkit.Poll;
import io.javalin.testtools.Response;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Captures what slf4j-simple writes (to standard error, looked up on every write) while a block runs, and carries
 * one response out of the block for assertions made after it.
 */
final class LogCapture {

    private static Response kept;

    private LogCapture() {
    }

    static synchronized String during(Runnable block) {
        PrintStream original = System.err;
        var captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            block.run();
        } finally {
            System.setErr(original);
        }
        String log = captured.toString(StandardCharsets.UTF_8);
        return log;
    }

    /**
     * As {@link #during(Runnable)}, then waits up to five seconds for every line matching one of {@code awaited}: Jetty
     * may log an exchange a moment after the client has read its response.
     */
    static synchronized String awaiting(List<Pattern> awaited, Runnable block) {
        PrintStream original = System.err;
        var captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            block.run();
            Poll.until(Duration.ofSeconds(5), Duration.ofMillis(1), () -> allFound(awaited, capturedText(captured)));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            System.setErr(original);
        }
        return capturedText(captured);
    }

    private static String capturedText(ByteArrayOutputStream captured) {
        synchronized (captured) {
            return captured.toString(StandardCharsets.UTF_8);
        }
    }

    private static boolean allFound(List<Pattern> awaited, String log) {
        return awaited.stream().allMatch(pattern -> pattern.matcher(log).find());
    }

    static void keep(Response response) {
        kept = response;
    }

    static Response kept() {
        return kept;
    }
}
