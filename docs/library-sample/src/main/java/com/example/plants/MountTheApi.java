package com.example.plants;

import dev.plantstore.core.PlantStore;
import dev.plantstore.core.PlantStores;
import dev.plantstore.core.TokenVerifier;
import dev.plantstore.http.ClientLimits;
import dev.plantstore.http.PlantStoreApi;
import io.javalin.Javalin;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

public final class MountTheApi {

    /** Your Javalin application, with the Plant Store API mounted beside your own routes. */
    public static Javalin createApp(PlantStore store, String token) {
        // The documents (/openapi.yaml, /docs) need two more dependencies, "Metrics and the docs page" says which;
        // without them, mount leaves the documents out and logs a line that says so.
        PlantStoreApi api = PlantStoreApi.of(store, TokenVerifier.staticTokens(List.of(token)))
                .withMaxBodyBytes(16 * 1024);
        return Javalin.create(config -> {
            // What a client connection may do on this server, your routes included: see "What mount gives".
            api.mount(config, ClientLimits.defaults());
            config.routes.get("/", ctx -> ctx.result("your own routes are untouched"));
        });
    }

    /**
     * Serves on 127.0.0.1, port PLANTS_PORT (7070 when unset, 0 for any free one), with the token PLANTS_TOKEN, or
     * with one made up and printed when it is unset.
     */
    public static void main(String[] args) {
        Optional<String> configured = Optional.ofNullable(System.getenv("PLANTS_TOKEN"));
        String token = configured.orElseGet(MountTheApi::newToken);
        int port = Integer.parseInt(Optional.ofNullable(System.getenv("PLANTS_PORT")).orElse("7070"));
        PlantStore store = PlantStores.inMemory();
        Javalin app = createApp(store, token).start("127.0.0.1", port);
        // The application owns the store: it closes it after the server has stopped.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            app.stop();
            store.close();
        }));
        if (configured.isEmpty()) {
            System.out.println("token (PLANTS_TOKEN was not set): " + token);
        }
        System.out.println("Plant Store API listening on http://127.0.0.1:" + app.port() + "/plants");
    }

    private static String newToken() {
        byte[] random = new byte[32];
        new SecureRandom().nextBytes(random);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(random);
    }
}
