package dev.plantstore.app;

import dev.plantstore.core.CommitListener;
import dev.plantstore.core.TokenVerifier;
import dev.plantstore.core.WebhookListener;
import dev.plantstore.core.Webhooks;
import dev.plantstore.http.ClientLimits;
import dev.plantstore.http.PlantStoreApi;
import dev.plantstore.http.PlantStoreServer;
import dev.plantstore.oidc.OidcTokenVerifier;
import io.javalin.util.JavalinBindException;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** {@code java -jar plantstore.jar}: wires options, tokens, store and server together and runs until stopped. */
public final class Main {

    private static final int USAGE_ERROR = 2;
    private static final int STARTUP_ERROR = 1;

    private Main() {
    }

    public static void main(String[] args) {
        // The one read of the environment: Options takes its configuration from this map, and nothing else does.
        Map<String, String> env = System.getenv();
        if (args.length > 0 && args[0].equals(WebhooksCommand.NAME)) {
            System.exit(WebhooksCommand.run(Arrays.asList(args).subList(1, args.length), env, System.out, System.err));
            return;
        }
        Options options;
        try {
            options = Options.parse(Arrays.asList(args), env);
        } catch (UsageException e) {
            exit(USAGE_ERROR, e.getMessage(), null);
            return;
        }
        // Output and logging are configured once, here, before anything can log.
        Console out = Console.install(options.logFormat());
        Interrupts interrupts = Interrupts.install(out);
        if (options.help()) {
            out.print(Options.USAGE);
            return;
        }
        try {
            start(options, Options.secrets(env), out, interrupts);
        } catch (UsageException e) {
            exit(USAGE_ERROR, e.getMessage(), out);
        } catch (StartupException e) {
            exit(STARTUP_ERROR, e.getMessage(), out);
        }
    }

    /** Ends the process with {@code status} and one line on standard error, after whatever {@code out} holds. */
    private static void exit(int status, String message, Console out) {
        if (out != null) {
            out.flush();
        }
        System.err.println("plantstore: " + message);
        System.exit(status);
    }

    private static void start(Options options, Options.Secrets secrets, Console out, Interrupts interrupts)
            throws UsageException, StartupException {
        Map<String, String> tokens = Tokens.named(secrets.tokens(), options.tokensFile());
        String generatedToken = null;
        if (tokens.isEmpty() && options.oidcIssuer().isEmpty()) {
            generatedToken = Tokens.generate();
            tokens = Map.of("generated", generatedToken);
        }
        List<Runnable> verifiersToClose = new ArrayList<>();
        List<TokenVerifier> accepted = new ArrayList<>();
        // The identity provider's verifier first: it refuses what is not a JWT by its shape alone, while the static
        // tokens' check hashes whatever it is given, and a JWT is then hashed once rather than twice.
        if (options.oidcIssuer().isPresent()) {
            var oidc = OidcTokenVerifier.start(options.oidcIssuer().get(), options.oidcAudience().orElseThrow(),
                    Duration.ofSeconds(options.oidcClockSkewSeconds()));
            verifiersToClose.add(oidc::close);
            accepted.add(oidc);
        }
        if (options.tokensFile().isPresent()) {
            var reloading = ReloadingTokens.watch(options.tokensFile().get(),
                    () -> staticTokens(Tokens.named(secrets.tokens(), options.tokensFile())),
                    ReloadingTokens.CHECK_EVERY);
            verifiersToClose.add(reloading::close);
            accepted.add(reloading);
        } else if (!tokens.isEmpty()) {
            accepted.add(staticTokens(tokens));
        }
        TokenVerifier verifier = TokenVerifier.firstOf(accepted);

        // Metrics are recorded only when something can read them.
        Optional<PrometheusMeterRegistry> metrics = options.managementPort().isPresent()
                ? Optional.of(jvmMeasured(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT)))
                : Optional.empty();
        Optional<Webhooks> webhooks = WebhookConfig.configured(options.webhookUrls(), secrets.webhookSecret(),
                options.webhookSecretFile(),
                metrics.<WebhookListener>map(WebhookMetrics::new).orElse(WebhookListener.NONE));
        OpenStore store = OpenStore.open(options.store(), secrets,
                metrics.<CommitListener>map(CommitMetrics::new).orElse(CommitListener.NONE), webhooks);
        PlantStoreApi api;
        try {
            api = PlantStoreApi.of(store.store(), verifier)
                    .withMaxBodyBytes(options.maxBodyBytes())
                    .withDocs(options.docs())
                    .withCorsOrigins(options.corsOrigins())
                    .withAuthFailureLimit(options.authFailureLimit());
        } catch (IllegalArgumentException e) {
            store.close();
            throw new UsageException("--cors-origins: " + e.getMessage());
        }
        if (options.oidcIssuer().isPresent()) {
            api = api.withDocumentedIssuer(options.oidcIssuer().get());
        }
        try {
            api = api.withTrustedProxies(options.trustedProxies());
        } catch (IllegalArgumentException e) {
            store.close();
            throw new UsageException("--trusted-proxies: " + e.getMessage());
        }
        try {
            api = api.withScopes(options.createScope(), options.deleteScope());
        } catch (IllegalArgumentException e) {
            store.close();
            throw new UsageException("--oidc-create-scope, --oidc-delete-scope: " + e.getMessage());
        }
        if (metrics.isPresent()) {
            api = api.withMetrics(metrics.get());
        }
        PlantStoreServer server;
        try {
            server = PlantStoreServer.start(api, options.host(), options.port(),
                    new ClientLimits(Duration.ofSeconds(options.idleTimeoutSeconds()), options.maxConnections(),
                            options.minBodyRate()));
        } catch (UncheckedIOException e) {
            store.close();
            throw new StartupException("cannot listen on " + options.host() + ":" + options.port() + ": "
                    + Failures.rootMessage(e));
        }
        Optional<ManagementServer> management = Optional.empty();
        if (metrics.isPresent()) {
            try {
                management = Optional.of(ManagementServer.start(options.managementHost(),
                        options.managementPort().getAsInt(), server::isReady, metrics.get()));
            } catch (JavalinBindException e) {
                server.close();
                store.close();
                throw new StartupException("cannot listen on " + options.managementHost() + ":"
                        + options.managementPort().getAsInt() + " (management): " + Failures.rootMessage(e));
            }
        }
        Optional<ManagementServer> managementServer = management;
        Duration drain = Duration.ofSeconds(options.drainSeconds());
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            interrupts.stopping();
            stop(server, managementServer, drain, store, verifiersToClose, out);
        },
                "plantstore-shutdown"));

        out.println("store " + OpenStore.describe(options.store()) + " (" + promise(options.store()) + ")");
        options.oidcIssuer().ifPresent(issuer -> out.println("access tokens from " + issuer + " for audience "
                + options.oidcAudience().orElseThrow() + " (its keys are fetched when a token first needs them)"));
        webhooks.ifPresent(w -> out.println("webhooks to " + w.receivers().size() + " receiver"
                + (w.receivers().size() == 1 ? "" : "s") + ", each event retried for " + w.retryPeriod().toHours()
                + " h"));
        managementServer.ifPresent(m -> out.println("plantstore management on http://"
                + hostForUrl(options.managementHost()) + ":" + m.port()));
        String url = "http://" + hostForUrl(options.host()) + ":" + server.port();
        if (generatedToken != null) {
            printGeneratedToken(out, generatedToken, url);
        }
        // Last, so that whoever waits for this line finds everything above it already printed.
        out.println("plantstore listening on " + url);
    }

    private static TokenVerifier staticTokens(Map<String, String> tokens) throws UsageException {
        try {
            return TokenVerifier.staticTokens(tokens);
        } catch (IllegalArgumentException e) {
            throw new UsageException("configured " + e.getMessage());
        }
    }

    private static String promise(StoreSpec store) {
        return store instanceof StoreSpec.Memory ? "not durable: plants are lost on exit" : "durable";
    }

    /** JVM memory, garbage collection and threads, through Micrometer's binders. */
    private static PrometheusMeterRegistry jvmMeasured(PrometheusMeterRegistry registry) {
        new JvmMemoryMetrics().bindTo(registry);
        new JvmGcMetrics().bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        return registry;
    }

    /**
     * Runs on SIGTERM or the first SIGINT (a second one ends the process at once: {@link Interrupts}): readiness turns
     * DOWN while the server keeps serving for the drain period, so that a load balancer checking readiness stops
     * sending requests; then the server stops accepting and lets requests in flight finish, the store commits what it
     * was given and closes, and the process exits 0. The JVM would report 143 for SIGTERM however cleanly the hooks
     * ran; a requested, completed stop is a success, so the hook ends the process itself once the server is down.
     */
    private static void stop(PlantStoreServer server, Optional<ManagementServer> management, Duration drain,
                             OpenStore store, List<Runnable> verifiers, Console out) {
        server.drain();
        if (!drain.isZero()) {
            out.println("plantstore draining: not ready, serving for " + drain.toSeconds() + " s more");
            try {
                Thread.sleep(drain.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        List<Closing.Step> steps = new ArrayList<>();
        steps.add(new Closing.Step("the server", server::close));
        management.ifPresent(m -> steps.add(new Closing.Step("the management server", m::close)));
        steps.add(new Closing.Step("the store", store::close));
        verifiers.forEach(close -> steps.add(new Closing.Step("a token verifier", close)));
        boolean clean = Closing.closeAll(steps, out::println);
        out.println(clean ? "plantstore stopped" : "plantstore stopped, but something failed to close (above)");
        Runtime.getRuntime().halt(clean ? 0 : STARTUP_ERROR);
    }

    private static void printGeneratedToken(Console out, String token, String url) {
        String local = url.replace("://0.0.0.0:", "://127.0.0.1:").replace("://[::]:", "://[::1]:");
        out.println("No token configured (PLANTSTORE_TOKENS or --tokens-file),"
                + " so this run accepts one generated token:");
        out.println("  " + token);
        out.println("Try it:");
        out.println("  curl -i -X POST " + local + "/plants -H 'Authorization: Bearer " + token + "' \\");
        out.println("       -H 'Content-Type: application/json'"
                + " -d '{\"id\":1,\"name\":\"Monstera\",\"tag\":\"aroid\"}'");
        out.println("  curl -i -X DELETE " + local + "/plants/1 -H 'Authorization: Bearer " + token + "'");
    }

    private static String hostForUrl(String host) {
        return host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host;
    }
}
