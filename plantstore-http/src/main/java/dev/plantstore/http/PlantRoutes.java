package dev.plantstore.http;

import dev.plantstore.core.ApiError;
import dev.plantstore.core.CreateResult;
import dev.plantstore.core.NewPlant;
import dev.plantstore.core.PlantStore;
import io.javalin.http.Context;

/** The interface's two operations as Javalin handlers over a {@link PlantStore}; {@link Operations} routes them. */
final class PlantRoutes {

    private final PlantStore store;
    private final int maxBodyBytes;

    PlantRoutes(PlantStore store, int maxBodyBytes) {
        this.store = store;
        this.maxBodyBytes = maxBodyBytes;
    }

    void create(Context ctx) {
        NewPlant newPlant = NewPlantDecoder.decode(RequestBody.readJson(ctx, maxBodyBytes));
        CreateResult result = store.create(newPlant);
        if (result instanceof CreateResult.Created created) {
            Json.respond(ctx, 200, created.plant());
        } else if (result instanceof CreateResult.AlreadyStored retried) {
            // Identical to what is stored: most likely the client's own earlier create, retried after a lost answer.
            Json.respond(ctx, 200, retried.plant());
        } else {
            Json.respond(ctx, new ApiError(409, "a plant with id " + newPlant.id() + " already exists"));
        }
    }

    void delete(Context ctx) {
        long id = PathId.parse(ctx.pathParam("id"));
        if (store.delete(id)) {
            // A 204 has no body, so nothing for a content type to describe; Javalin sets a default one up front.
            ctx.status(204).res().setContentType(null);
        } else {
            Json.respond(ctx, new ApiError(404, "no plant with id " + id));
        }
    }
}
