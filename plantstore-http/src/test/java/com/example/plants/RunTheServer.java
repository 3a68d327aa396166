package com.example.plants;

import dev.plantstore.core.PlantStore;
import dev.plantstore.core.PlantStores;
import dev.plantstore.core.TokenVerifier;
import dev.plantstore.http.PlantStoreApi;
import dev.plantstore.http.PlantStoreServer;
import java.util.List;

public final class RunTheServer {

    /** Arguments: a token and a port. Serves until the thread is interrupted. */
    public static void main(String[] args) throws InterruptedException {
        String token = args[0];
        int port = Integer.parseInt(args[1]);
        // Closed in reverse order: the server stops first, then the store it was using.
        try (PlantStore store = PlantStores.inMemory();
             PlantStoreServer server = PlantStoreServer.start(
                     PlantStoreApi.of(store, TokenVerifier.staticTokens(List.of(token))).withDocs(false),
                     "127.0.0.1", port)) {
            System.out.println("Plant Store listening on " + server.uri());
            Thread.currentThread().join();
        }
    }
}
