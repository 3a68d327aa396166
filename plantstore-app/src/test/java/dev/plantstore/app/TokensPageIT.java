package dev.plantstore.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.testkit.DoThisBox;
import dev.plantstore.testkit.JarProcess;
import dev.plantstore.testkit.Sockets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The "Do this" box of docs/tokens.md, run from the page: the identity provider's command from the clone, the
 * server's and the client's in a {@link ReaderShell}; each prints the lines the page shows after it. What the test
 * changes besides: free ports for the page's 18200 and 8080 (the server's through PLANTSTORE_PORT, as the page's
 * command keeps the default), and the token the provider printed for the page's shortened one.
 */
class TokensPageIT {

    private static final Pattern JWT = Pattern.compile("eyJ[\\w-]+\\.[\\w-]+\\.[\\w-]+");
    private static final String SHORTENED_TOKEN = "eyJraWQiOi…";

    @TempDir
    Path dir;

    @Test
    void theBoxCreatesAPlantWithATokenTheProviderIssued() throws Exception {
        String providerPort = Integer.toString(Sockets.freePort());
        String serverPort = Integer.toString(Sockets.freePort());
        List<DoThisBox.Step> steps = DoThisBox.steps(ReaderShell.ROOT.resolve("docs/tokens.md"),
                Map.of("18200", providerPort, "8080", serverPort));
        assertEquals(3, steps.size(), "the box is the provider, the server and the client: " + steps);

        try (ReaderShell shell = ReaderShell.in(dir)) {
            // The server needs the provider only for a token's first check, so both start at once.
            JarProcess provider = shell.start(steps.get(0).command(), ReaderShell.ROOT, "provider", Map.of());
            JarProcess server = shell.start(steps.get(1).command(), "server", Map.of("PLANTSTORE_PORT", serverPort));
            ReaderShell.awaitShown(provider, steps.get(0));
            String token = provider.output().lines().filter(line -> JWT.matcher(line).matches()).findFirst()
                    .orElseThrow();
            ReaderShell.awaitShown(server, steps.get(1));

            DoThisBox.Step client = steps.get(2);
            assertTrue(client.command().contains(SHORTENED_TOKEN), "the client's command uses the token: " + client);
            shell.run(new DoThisBox.Step(client.command().replace(SHORTENED_TOKEN, token), client.shown()), "client",
                    Map.of());
        }
    }
}
