package dev.plantstore.http;

import io.javalin.config.JavalinConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.eclipse.jetty.server.AbstractConnector;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Server;

/**
 * One server's build as the pipeline's steps install it: what they share, and what is applied once they have all
 * run.
 */
final class Assembly {

    /** Who a server is built for: an application the API is mounted on, with limits or not, the server, a port. */
    enum Audience { MOUNT, MOUNT_WITH_LIMITS, STANDALONE, MANAGEMENT_PORT }

    /**
     * What a server is built for: its audience, and what that audience brings (the API's settings, client limits, a
     * stop time-out, the management port's own host name).
     */
    record Target(Audience audience, Optional<ApiSettings> api, Optional<ClientLimits> limits,
                  Optional<Duration> stopTimeout, Optional<String> ownHost) {
    }

    final Target target;
    final JavalinConfig config;
    /** Whether the API's documents are served, decided before anything is registered. */
    final boolean docs;
    /** The API's operations, which its routes, token check, CORS and read-ahead are made from. */
    final Operations operations;
    /** The Jetty handlers, outermost first. */
    final List<Handler.Wrapper> handlers = new ArrayList<>();
    private final List<Consumer<Server>> serverSettings = new ArrayList<>();
    private final List<Consumer<AbstractConnector>> connectorSettings = new ArrayList<>();
    private BearerAuth auth;

    Assembly(Target target, JavalinConfig config, boolean docs, Operations operations) {
        this.target = target;
        this.config = config;
        this.docs = docs;
        this.operations = operations;
    }

    ApiSettings api() {
        return target.api().orElseThrow();
    }

    /** The one {@link BearerAuth} of the server: whichever step asks first decides, the others find its decision. */
    BearerAuth auth() {
        if (auth == null) {
            ApiSettings api = api();
            auth = new BearerAuth(api.verifier(), api.authFailureLimit() == 0
                    ? Optional.empty()
                    : Optional.of(new AuthFailureLimiter(api.authFailureLimit(), System::nanoTime)), api.scopes(),
                    api.clientAddresses(), operations);
        }
        return auth;
    }

    void onServer(Consumer<Server> setting) {
        serverSettings.add(setting);
    }

    void onConnectors(Consumer<AbstractConnector> setting) {
        connectorSettings.add(setting);
    }

    /**
     * The server's settings, then the Jetty handlers nested in the steps' order around whatever handler the server
     * has by then; Javalin nests itself innermost. Connectors exist only once Javalin creates its own, after these
     * callbacks and before it fires {@code serverStarting}.
     */
    void finish() {
        var server = new AtomicReference<Server>();
        config.jetty.modifyServer(jetty -> {
            server.set(jetty);
            serverSettings.forEach(setting -> setting.accept(jetty));
            Handler inner = jetty.getHandler();
            for (int i = handlers.size() - 1; i >= 0; i--) {
                Handler.Wrapper wrapper = handlers.get(i);
                wrapper.setHandler(inner);
                inner = wrapper;
            }
            jetty.setHandler(inner);
        });
        if (!connectorSettings.isEmpty()) {
            config.events.serverStarting(() -> {
                for (Connector connector : server.get().getConnectors()) {
                    if (connector instanceof AbstractConnector settable) {
                        connectorSettings.forEach(setting -> setting.accept(settable));
                    }
                }
            });
        }
    }
}
