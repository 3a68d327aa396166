package dev.plantstore.http;

import dev.plantstore.core.ApiError;
import io.javalin.config.JavalinConfig;
import io.javalin.http.HttpResponseException;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;
import org.eclipse.jetty.http.HttpURI;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * What an operations port (metrics, health) needs around its routes, for an application that serves one:
 *
 * <pre>{@code
 * Javalin.create(config -> {
 *     ManagementPort.protect(config, "127.0.0.1");
 *     config.routes.get("/metrics", ctx -> ctx.result(registry.scrape()));
 * }).start("127.0.0.1", 9090);
 * }</pre>
 *
 * <p>It answers only requests whose {@code Host} is an IP address, {@code localhost} or the host the port was
 * configured with, or that have none (HTTP/1.0); any other gets 421. A page on a site whose name an attacker rebinds to
 * this machine's address (DNS rebinding) sends its own name as the {@code Host}, so it cannot read the metrics, while a
 * scraper or a probe addressing the port by address or by that host gets through. Every response carries an
 * {@code X-Request-Id} and the security headers, and every refusal (421, 404, a malformed request) is an Error body,
 * never Jetty's page. It parses HTTP as strictly as {@link PlantStoreServer} does.
 */
public final class ManagementPort {

    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");

    private ManagementPort() {
    }

    /** Protects the application {@code config} builds, serving on {@code host} (a name or an address). */
    public static void protect(JavalinConfig config, String host) {
        Objects.requireNonNull(host, "null host");
        String ownName = host.toLowerCase(Locale.ROOT);
        config.jetty.modifyHttpConfiguration(Pipeline::strict);
        config.jetty.modifyServer(server -> {
            server.setErrorHandler(new JsonErrorHandler());
            server.insertHandler(new OwnHosts(ownName));
            server.insertHandler(new RequestIds());
        });
        SecurityHeaders.onEveryPath().beforeEveryPath().ifPresent(config.routes::before);
        config.routes.exception(HttpResponseException.class,
                (e, ctx) -> Json.respond(ctx, new ApiError(e.getStatus(), e.getStatus() == 404
                        ? "no such resource: " + ctx.method().name() + " " + ctx.path() : e.getMessage())));
    }

    /** Refuses with 421 a request whose Host is a name other than the port's own or {@code localhost}. */
    private static final class OwnHosts extends Handler.Wrapper {

        private final String ownName;

        OwnHosts(String ownName) {
            this.ownName = ownName;
        }

        @Override
        public boolean handle(Request request, Response response, Callback callback) throws Exception {
            HttpURI uri = request.getHttpURI();
            String host = uri == null || uri.getHost() == null ? "" : uri.getHost().toLowerCase(Locale.ROOT);
            // No Host at all (an HTTP/1.0 probe) is not a browser's request, and so not a rebinding page's.
            if (host.isEmpty() || host.startsWith("[") || IPV4.matcher(host).matches() || host.equals("localhost")
                    || host.equals(ownName)) {
                return super.handle(request, response, callback);
            }
            var refusal = new ApiProblem(421, "this port answers only to its own addresses and names, not " + host);
            Response.writeError(request, response, callback, 421, refusal.getMessage(), refusal);
            return true;
        }
    }
}
