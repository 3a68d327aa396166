package com.example.embedder;

import dev.plantstore.core.PlantStore;
import dev.plantstore.core.PlantStores;
import dev.plantstore.core.TokenVerifier;
import dev.plantstore.http.PlantStoreApi;
import dev.plantstore.http.PlantStoreServer;
import io.javalin.Javalin;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;

/**
 * An application with nothing but plantstore-http and an SLF4J backend, as the library page's minimal pom builds it;
 * LeanClassPathTest runs it in a JVM of its own. It says what it finds on its class path, then mounts the API with
 * the documents asked for (refused, naming what is missing) and as they are by default, and runs the standalone
 * server by default, serving a create, a delete and the docs page each time. One line of output per step, for the
 * test to read.
 */
public final class LeanEmbedder {

    private static final String TOKEN = "lean-token";
    private static final HttpClient CLIENT = HttpClient.newHttpClient();

    private LeanEmbedder() {
    }

    public static void main(String[] args) throws Exception {
        for (String optional : List.of("io.micrometer.core.instrument.MeterRegistry",
                "com.fasterxml.jackson.dataformat.yaml.YAMLMapper", "com.fasterxml.jackson.databind.ObjectMapper")) {
            System.out.println("class " + optional + (isLoadable(optional) ? " present" : " absent"));
        }
        boolean webjar = LeanEmbedder.class.getClassLoader()
                .getResource("META-INF/maven/org.webjars/swagger-ui/pom.properties") != null;
        System.out.println("webjar swagger-ui " + (webjar ? "present" : "absent"));

        try (PlantStore store = PlantStores.inMemory()) {
            PlantStoreApi api = PlantStoreApi.of(store, TokenVerifier.staticTokens(List.of(TOKEN)));
            try {
                Javalin.create(api.withDocs(true)::mount);
                System.out.println("docs on: mounted");
            } catch (IllegalStateException e) {
                System.out.println("docs on: refused: " + e.getMessage());
            }

            Javalin app = Javalin.create(api::mount).start("127.0.0.1", 0);
            try {
                serve(URI.create("http://127.0.0.1:" + app.port() + "/"), "mounted");
            } finally {
                app.stop();
            }
            try (PlantStoreServer server = PlantStoreServer.start(api, "127.0.0.1", 0)) {
                serve(server.uri(), "standalone");
            }
        }
    }

    private static boolean isLoadable(String className) {
        try {
            Class.forName(className, false, LeanEmbedder.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }

    private static void serve(URI base, String how) throws Exception {
        HttpResponse<String> created = CLIENT.send(HttpRequest.newBuilder(base.resolve("/plants"))
                .header("Authorization", "Bearer " + TOKEN).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"id\": 1, \"name\": \"Fern\"}")).build(),
                HttpResponse.BodyHandlers.ofString());
        System.out.println(how + ": create " + created.statusCode() + " " + created.body());
        HttpResponse<Void> deleted = CLIENT.send(HttpRequest.newBuilder(base.resolve("/plants/1"))
                .header("Authorization", "Bearer " + TOKEN).DELETE().build(), HttpResponse.BodyHandlers.discarding());
        System.out.println(how + ": delete " + deleted.statusCode());
        HttpResponse<Void> docs = CLIENT.send(HttpRequest.newBuilder(base.resolve("/docs")).build(),
                HttpResponse.BodyHandlers.discarding());
        System.out.println(how + ": docs " + docs.statusCode());
    }
}
