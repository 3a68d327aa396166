package dev.plantstore.http;

import dev.plantstore.core.ApiError;
import dev.plantstore.core.CreateResult;
import dev.plantstore.core.NewPlant;
import dev.plantstore.core.PlantStore;
import io.javalin.http.Context;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.server.Request;

/** The two operations of the interface, as Javalin handlers over a {@link PlantStore}, and the paths they serve. */
final class PlantRoutes {

    static final String COLLECTION = "/plants";
    static final String ITEM = "/plants/{id}";

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

    /** {@code POST /plants}, the one route that takes a body; Javalin also routes {@code /plants/} to it. */
    static boolean isCreate(Request request) {
        if (!HttpMethod.POST.is(request.getMethod())) {
            return false;
        }
        String path = Request.getPathInContext(request);
        return path.startsWith(COLLECTION)
                && (path.length() == COLLECTION.length() || path.length() == COLLECTION.length() + 1
                        && path.charAt(COLLECTION.length()) == '/');
    }

    /** {@code DELETE /plants/...}, which the API's authentication judges whatever follows the slash. */
    static boolean isDelete(Request request) {
        String path = Request.getPathInContext(request);
        return HttpMethod.DELETE.is(request.getMethod()) && path.startsWith(COLLECTION + "/")
                && path.length() > COLLECTION.length() + 1;
    }
}
