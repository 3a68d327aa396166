package dev.plantstore.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The token issuer refuses what it cannot serve with one line and an exit status, never a stack trace. */
class TokenIssuerTest {

    private record Ended(int status, String output) {
    }

    private static Ended run(String... args) throws Exception {
        // Without SLF4J's warning that no logging backend is on the class path, as the module's exec:java runs it.
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Dslf4j.internal.verbosity=ERROR",
                "-cp", System.getProperty("java.class.path"), TokenIssuer.class.getName()));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "the issuer ends");
        return new Ended(process.exitValue(), new String(process.getInputStream().readAllBytes(),
                StandardCharsets.UTF_8));
    }

    @Test
    void aPortThatIsNotANumberIsRefusedWithTheUsage() throws Exception {
        assertEquals(new Ended(2, "usage: TokenIssuer PORT (1 to 65535), got 18200x\n"), run("18200x"));
    }

    @Test
    void aPortInUseIsOneLine() throws Exception {
        try (var taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            int port = taken.getLocalPort();
            assertEquals(new Ended(1, "cannot serve on 127.0.0.1:" + port + ": Address already in use\n"),
                    run(Integer.toString(port)));
        }
    }
}
