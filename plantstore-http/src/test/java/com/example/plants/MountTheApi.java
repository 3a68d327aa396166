package com.example.plants;

import dev.plantstore.core.PlantStore;
import dev.plantstore.core.TokenVerifier;
import dev.plantstore.http.PlantStoreApi;
import io.javalin.Javalin;
import java.util.List;

public final class MountTheApi {

    /** Your Javalin application, with the Plant Store API mounted beside your own routes. */
    public static Javalin createApp(PlantStore store, String token) {
        // The documents (/openapi.yaml, /docs) need two more dependencies; see "Metrics and the docs page".
        PlantStoreApi api = PlantStoreApi.of(store, TokenVerifier.staticTokens(List.of(token)))
                .withMaxBodyBytes(16 * 1024)
                .withDocs(false);
        return Javalin.create(config -> {
            api.mount(config);
            config.routes.get("/", ctx -> ctx.result("your own routes are untouched"));
        });
    }

    public static void main(String[] args) {
        PlantStore store = PlantStore.inMemory();
        Javalin app = createApp(store, args[0]).start(7070);
        // The application owns the store: it closes it after the server has stopped.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            app.stop();
            store.close();
        }));
    }
}
