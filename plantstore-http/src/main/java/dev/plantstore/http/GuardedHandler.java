package dev.plantstore.http;

import dev.plantstore.core.ApiError;
import dev.plantstore.core.StoreUnavailableException;
import io.javalin.http.Context;
import io.javalin.http.Handler;

/**
 * Wraps a handler so that any exception it throws becomes an Error body: an {@link ApiProblem} as itself, the store
 * unavailable as a 503, anything else as a 500 whose detail goes only to the log, under the request's id, which the
 * client is given as the reference. Doing this per handler rather than with Javalin's global exception mappers keeps
 * an embedding application's own error handling untouched.
 */
final class GuardedHandler implements Handler {

    private final Handler work;

    private GuardedHandler(Handler work) {
        this.work = work;
    }

    static Handler guard(Handler work) {
        return new GuardedHandler(work);
    }

    @Override
    public void handle(Context ctx) {
        try {
            work.handle(ctx);
        } catch (ApiProblem problem) {
            Json.respond(ctx, problem.toError());
            ctx.skipRemainingHandlers();
        } catch (StoreUnavailableException e) {
            respondUnavailable(ctx, e);
            ctx.skipRemainingHandlers();
        } catch (Exception e) {
            respondInternalError(ctx, e);
            ctx.skipRemainingHandlers();
        }
    }

    /**
     * The store is down or slow: a condition to retry, not a bug. The reason goes only on the request's access line,
     * where the standalone server writes one, rather than a line of its own, so that a fault lasting minutes adds
     * nothing per request to the log beyond the access lines; the store logs the fault itself when it starts, while
     * it lasts and when it ends.
     */
    static void respondUnavailable(Context ctx, StoreUnavailableException e) {
        Throwable cause = e.getCause();
        Exchange.of(ctx).refusedBecause(e.getMessage() + (cause == null ? "" : " (" + cause.getMessage() + ")"));
        ctx.header("Retry-After", "1");
        Json.respond(ctx, new ApiError(503, "the plant store is unavailable; try again later"));
    }

    static void respondInternalError(Context ctx, Exception e) {
        String reference = RequestIds.of(ctx);
        ApiLog.LOG.error("request {} failed: {} {}", reference, ctx.method(), ctx.path(), e);
        Json.respond(ctx, new ApiError(500, "internal server error; reference " + reference));
    }
}
