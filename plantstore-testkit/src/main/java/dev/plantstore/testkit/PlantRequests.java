package dev.plantstore.testkit;

import java.net.URI;
import java.net.http.HttpRequest;

/** The Plant Store's create and delete requests as a client sends them, for the JDK's HTTP client. */
public final class PlantRequests {

    private PlantRequests() {
    }

    /** {@code POST} of {@code json} to {@code plants} (the {@code /plants} URI) with {@code token}. */
    public static HttpRequest.Builder create(URI plants, String token, String json) {
        return HttpRequest.newBuilder(plants)
                .header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json));
    }

    /** {@code DELETE} of {@code plant} (a {@code /plants/{id}} URI) with {@code token}. */
    public static HttpRequest.Builder delete(URI plant, String token) {
        return HttpRequest.newBuilder(plant).header("Authorization", "Bearer " + token).DELETE();
    }

    /** A create's body without a tag; {@code name} is written as given, so a test can send an invalid one. */
    public static String plantJson(long id, String name) {
        return "{\"id\":" + id + ",\"name\":\"" + name + "\"}";
    }

    /** A create's body; {@code name} and {@code tag} are written as given, so a test can send an invalid one. */
    public static String plantJson(long id, String name, String tag) {
        return "{\"id\":" + id + ",\"name\":\"" + name + "\",\"tag\":\"" + tag + "\"}";
    }
}
