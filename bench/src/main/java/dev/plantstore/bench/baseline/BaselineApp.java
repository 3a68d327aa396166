package dev.plantstore.bench.baseline;

import io.javalin.Javalin;
import io.javalin.http.ConflictResponse;
import io.javalin.http.NotFoundResponse;
import io.javalin.http.UnauthorizedResponse;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The ceiling the service is measured against: the same stack, Javalin and Jackson, doing only the obvious work. A GET
 * answers a constant JSON body; POST and DELETE are what anyone would write in ten minutes: a string-equals token
 * check, Jackson into a record, {@code putIfAbsent} and {@code remove} on a map, and none of the service's other rules.
 *
 * <p>{@code java -jar baseline.jar PORT}, with the accepted token in {@code PLANTSTORE_TOKENS}.
 */
public final class BaselineApp {

    record NewPlant(long id, String name, String tag) {
    }

    record Plant(String name, String tag) {
    }

    private static final String CONSTANT = "{\"status\":\"UP\"}";

    private BaselineApp() {
    }

    public static void main(String[] args) {
        start(Integer.parseInt(args[0]), System.getenv("PLANTSTORE_TOKENS"));
    }

    public static Javalin start(int port, String token) {
        String expected = "Bearer " + token;
        Map<Long, Plant> plants = new ConcurrentHashMap<>();
        return Javalin.create(config -> {
            config.startup.showJavalinBanner = false;
            config.routes.get("/constant", ctx -> ctx.contentType("application/json").result(CONSTANT));
            config.routes.before("/plants", ctx -> requireToken(expected, ctx.header("Authorization")));
            config.routes.before("/plants/*", ctx -> requireToken(expected, ctx.header("Authorization")));
            config.routes.post("/plants", ctx -> {
                NewPlant newPlant = ctx.bodyAsClass(NewPlant.class);
                Plant plant = new Plant(newPlant.name(), newPlant.tag());
                if (plants.putIfAbsent(newPlant.id(), plant) != null) {
                    throw new ConflictResponse();
                }
                ctx.json(plant);
            });
            config.routes.delete("/plants/{id}", ctx -> {
                if (plants.remove(Long.parseLong(ctx.pathParam("id"))) == null) {
                    throw new NotFoundResponse();
                }
                ctx.status(204);
            });
        }).start("127.0.0.1", port);
    }

    private static void requireToken(String expected, String authorization) {
        if (!expected.equals(authorization)) {
            throw new UnauthorizedResponse();
        }
    }
}
