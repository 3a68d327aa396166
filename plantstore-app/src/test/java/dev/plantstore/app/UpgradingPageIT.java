package dev.plantstore.app;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.plantstore.testkit.DoThisBox;
import dev.plantstore.testkit.JarProcess;
import dev.plantstore.testkit.PlantRequests;
import dev.plantstore.testkit.PreviousRelease;
import dev.plantstore.testkit.Sockets;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The "Do this" box of docs/upgrading.md, run from the page on a store the previous release wrote, in a directory of
 * its own with the new jar named by NEW_JAR, as the page says: the copy is migrated, this release serves it, and the
 * plant the previous release stored is there.
 */
class UpgradingPageIT {

    private static final String TOKEN = "upgrade-rehearsal-token";

    @TempDir
    Path dir;

    @Test
    void theRehearsalServesTheCopyOfAStoreThePreviousReleaseWrote() throws Exception {
        Path previousJar = PreviousRelease.require().serverJar();
        String port = Integer.toString(Sockets.freePort());
        List<DoThisBox.Step> steps = DoThisBox.steps(ReaderShell.ROOT.resolve("docs/upgrading.md"),
                Map.of("8081", port));
        assertEquals(3, steps.size(), "migrate the copy, serve it, delete from it: " + steps);
        // The store's directory is one of the operator's own, far from any build of the new release.
        Path store = Files.createDirectories(dir.resolve("var/lib/plants"));
        Map<String, String> newJar = Map.of("NEW_JAR", RunningJar.builtJar().toAbsolutePath().toString());
        try (ReaderShell shell = ReaderShell.in(dir)) {
            try (var previous = RunningJar.startJar(previousJar, store, Map.of("PLANTSTORE_TOKENS", TOKEN),
                    "--store", "sqlite:plantstore.db")) {
                HttpResponse<String> created = HttpClient.newHttpClient().send(PlantRequests.create(
                        previous.uri("/plants"), TOKEN, PlantRequests.plantJson(1, "Monstera")).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(200, created.statusCode(), created.body());
                // The page copies the store while the release of today still serves it, as an operator would.
                shell.run(steps.get(0), store, "migrate", newJar);
                JarProcess rehearsal = shell.start(steps.get(1).command(), store, "rehearsal", newJar);
                ReaderShell.awaitShown(rehearsal, steps.get(1));
                shell.run(steps.get(2), store, "delete", Map.of());
            }
        }
    }
}
