package dev.plantstore.http;

import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiConsumer;
import org.eclipse.jetty.server.Request;

/**
 * The API's operations, each declared once with its method, path, permission, body and handler. Routing, the scope
 * check, 405 and {@code Allow}, CORS's methods, the body read-ahead and the traced writes all read this table; an
 * operation that declares no permission is refused to every token. docs/request-path.md shows where each is read.
 */
final class Operations {

    /** What a token must be allowed for an operation; the scope that grants it is configured ({@code Scopes}). */
    enum Permission { CREATE, DELETE }

    /**
     * One operation: {@code path} is a Javalin template whose last segment may be a {@code {parameter}}, which any
     * rest of the path fills for the token check, as Javalin's {@code *} does.
     */
    record Operation(HandlerType method, String path, Optional<Permission> permission, boolean readsBody,
                     BiConsumer<PlantRoutes, Context> handler) {

        Operation {
            int parameter = path.indexOf('{');
            if (!path.startsWith("/") || parameter >= 0 && path.lastIndexOf('/') > parameter) {
                throw new IllegalArgumentException("an operation's path starts with / and has a parameter only as "
                        + "its last segment: " + path);
            }
        }

        /** Whether a request of {@code method} for {@code requestPath} is this operation. */
        boolean matches(String requestMethod, String requestPath) {
            return method.name().equals(requestMethod) && pathMatches(requestPath);
        }

        private boolean pathMatches(String requestPath) {
            int parameter = path.indexOf('{');
            if (parameter >= 0) {
                return requestPath.length() > parameter && requestPath.startsWith(path.substring(0, parameter));
            }
            // Javalin routes a trailing slash to the same handler.
            return requestPath.equals(path) || requestPath.equals(path + "/");
        }

        /** The path as a before-handler's pattern: a parameter becomes Javalin's {@code *}. */
        String beforePattern() {
            int parameter = path.indexOf('{');
            return parameter >= 0 ? path.substring(0, parameter) + "*" : path;
        }
    }

    /** The Plant Store interface: create a plant, delete a plant. */
    static final Operations PLANT_STORE = new Operations(List.of(
            new Operation(HandlerType.POST, "/plants", Optional.of(Permission.CREATE), true, PlantRoutes::create),
            new Operation(HandlerType.DELETE, "/plants/{id}", Optional.of(Permission.DELETE), false,
                    PlantRoutes::delete)));

    private final List<Operation> all;

    Operations(List<Operation> all) {
        this.all = List.copyOf(all);
    }

    List<Operation> all() {
        return all;
    }

    /** The operation {@code request} asks for, if it is one. */
    Optional<Operation> of(Request request) {
        String method = request.getMethod();
        String path = Request.getPathInContext(request);
        return all.stream().filter(operation -> operation.matches(method, path)).findFirst();
    }

    /** The operations by path, in the table's order: each path is one route, with a 405 for every other method. */
    Map<String, List<Operation>> byPath() {
        Map<String, List<Operation>> paths = new LinkedHashMap<>();
        for (Operation operation : all) {
            paths.computeIfAbsent(operation.path(), path -> new ArrayList<>()).add(operation);
        }
        return paths;
    }
}
