package dev.plantstore.http;

import io.javalin.testtools.Response;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

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

    static void keep(Response response) {
        kept = response;
    }

    static Response kept() {
        return kept;
    }
}
