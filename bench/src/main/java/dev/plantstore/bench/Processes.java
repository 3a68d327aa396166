package dev.plantstore.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** Runs a command to its end and keeps what it printed. */
final class Processes {

    record Finished(int exit, String output) {
    }

    private Processes() {
    }

    static Finished run(List<String> command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        return new Finished(process.waitFor(), output);
    }
}
