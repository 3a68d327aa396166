package dev.plantstore.app;

import static dev.plantstore.app.Options.AUTH_FAILURE_LIMIT;
import static dev.plantstore.app.Options.CORS_ORIGINS;
import static dev.plantstore.app.Options.DOCS;
import static dev.plantstore.app.Options.DRAIN;
import static dev.plantstore.app.Options.HOST;
import static dev.plantstore.app.Options.IDLE_TIMEOUT;
import static dev.plantstore.app.Options.KAFKA_BOOTSTRAP_SERVERS;
import static dev.plantstore.app.Options.KAFKA_CONFIG_FILE;
import static dev.plantstore.app.Options.KAFKA_TOPIC;
import static dev.plantstore.app.Options.LOG_FORMAT;
import static dev.plantstore.app.Options.MANAGEMENT_HOST;
import static dev.plantstore.app.Options.MANAGEMENT_PORT;
import static dev.plantstore.app.Options.MAX_BODY_BYTES;
import static dev.plantstore.app.Options.MAX_CONNECTIONS;
import static dev.plantstore.app.Options.MIN_BODY_RATE;
import static dev.plantstore.app.Options.OIDC_AUDIENCE;
import static dev.plantstore.app.Options.OIDC_CLOCK_SKEW;
import static dev.plantstore.app.Options.OIDC_CREATE_SCOPE;
import static dev.plantstore.app.Options.OIDC_DELETE_SCOPE;
import static dev.plantstore.app.Options.OIDC_ISSUER;
import static dev.plantstore.app.Options.PORT;
import static dev.plantstore.app.Options.STORE;
import static dev.plantstore.app.Options.TOKENS_FILE;
import static dev.plantstore.app.Options.TRACE_HEALTH;
import static dev.plantstore.app.Options.TRUSTED_PROXIES;
import static dev.plantstore.app.Options.WEBHOOK_SECRET_FILE;
import static dev.plantstore.app.Options.WEBHOOK_SIGNING_KEY_FILE;
import static dev.plantstore.app.Options.WEBHOOK_URL;

import dev.plantstore.core.CommitListener;
import dev.plantstore.core.EventSink;
import dev.plantstore.core.PlantStore;
import dev.plantstore.core.TokenVerifier;
import dev.plantstore.core.WebhookListener;
import dev.plantstore.core.Webhooks;
import dev.plantstore.http.ClientLimits;
import dev.plantstore.http.PlantStoreApi;
import dev.plantstore.http.PlantStoreServer;
import dev.plantstore.kafka.KafkaSink;
import dev.plantstore.oidc.OidcTokenVerifier;
import io.javalin.util.JavalinBindException;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.eclipse.jetty.util.ssl.SslContextFactory;

/** {@code java -jar plantstore.jar}: wires options, tokens, store and server together and runs until stopped. */
public final class Main {

    private static final int USAGE_ERROR = 2;
    private static final int STARTUP_ERROR = 1;

    private Main() {
    }

    public static void main(String[] args) {
        // The launcher's one read of the environment: the options, the secrets and tracing's OTEL_* variables come from
        // this map (OpenTelemetry's SDK, once tracing is on, also reads its OTEL_* variables itself: the same values).
        Map<String, String> env = System.getenv();
        if (args.length > 0 && args[0].equals(WebhooksCommand.NAME)) {
            System.exit(WebhooksCommand.run(Arrays.asList(args).subList(1, args.length), env, System.out, System.err));
            return;
        }
        if (args.length > 0 && args[0].equals(MigrateCommand.NAME)) {
            System.exit(MigrateCommand.run(Arrays.asList(args).subList(1, args.length), env));
            return;
        }
        if (args.length > 0 && args[0].equals(BackupCommand.NAME)) {
            System.exit(BackupCommand.run(Arrays.asList(args).subList(1, args.length), env));
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
        Console out = Console.install(options.get(LOG_FORMAT));
        Interrupts interrupts = Interrupts.install(out);
        if (options.action().isPresent()) {
            out.print(switch (options.action().get()) {
                case HELP -> Options.USAGE;
                case VERSION -> BuildInfo.OF_THIS_BUILD.line() + System.lineSeparator();
            });
            return;
        }
        try {
            start(options, env, out, interrupts);
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

    /**
     * Opens what the server needs, in order, each recorded in one {@link Closing} as it opens: a start that fails
     * part-way closes what it had opened with the same call that a stop closes everything with.
     */
    private static void start(Options options, Map<String, String> env, Console out, Interrupts interrupts)
            throws UsageException, StartupException {
        var closing = new Closing();
        Optional<ShutdownHook> stop = ShutdownHook.install(closing, interrupts, out);
        if (stop.isEmpty()) {
            return;
        }
        try {
            openAll(options, env, out, closing, stop.get());
        } catch (Closing.StoppedDuringStartup e) {
            // The stop closes what was opened and reports it.
        } catch (UsageException | StartupException | RuntimeException e) {
            stop.get().startFailed();
            closing.closeAll(out::println);
            throw e;
        } finally {
            stop.get().startEnded();
        }
    }

    private static void openAll(Options options, Map<String, String> env, Console out, Closing closing,
                                ShutdownHook stop) throws UsageException, StartupException {
        Options.Secrets secrets = Options.secrets(env);
        Map<String, String> tokens = Tokens.named(secrets.tokens(), options.get(TOKENS_FILE));
        Optional<String> generatedToken = Optional.empty();
        if (tokens.isEmpty() && options.get(OIDC_ISSUER).isEmpty()) {
            generatedToken = Optional.of(Tokens.generate());
            tokens = Map.of("generated", generatedToken.get());
        }
        // First, so that it is the global one when the store's webhook delivery starts, and closes last, flushing the
        // spans of the server's whole stop.
        Optional<OpenTelemetrySdk> tracing = Tracing.start(env, System.getProperties());
        tracing.ifPresent(sdk -> closing.opened("tracing", sdk, OpenTelemetrySdk::close));
        // Metrics are recorded only when something can read them.
        Optional<PrometheusMeterRegistry> metrics = options.get(MANAGEMENT_PORT).isPresent()
                ? Optional.of(measured(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT)))
                : Optional.empty();
        WebhookListener deliveries = metrics.<WebhookListener>map(WebhookMetrics::new).orElse(WebhookListener.NONE);
        Optional<WebhookConfig> webhookConfig = WebhookConfig.configured(options.get(WEBHOOK_URL),
                new WebhookConfig.Source(secrets.webhookSecret(), options.get(WEBHOOK_SECRET_FILE)),
                new WebhookConfig.Source(secrets.webhookSigningKey(), options.get(WEBHOOK_SIGNING_KEY_FILE)),
                deliveries);
        Optional<Webhooks> webhooks = webhookConfig.map(WebhookConfig::webhooks);
        Optional<KafkaSink> kafka = KafkaConfig.configured(options.get(KAFKA_BOOTSTRAP_SERVERS),
                options.get(KAFKA_TOPIC), options.get(KAFKA_CONFIG_FILE), deliveries);
        TokenVerifier verifier = verifier(options, secrets, tokens, closing);
        Optional<ReloadingTls> tls = Optional.empty();
        if (options.tlsFiles().isPresent()) {
            tls = Optional.of(closing.opened("the TLS files' watch",
                    ReloadingTls.watch(options.tlsFiles().get(), ReloadingTls.CHECK_EVERY),
                    ReloadingTls::close));
            metrics.ifPresent(tls.get()::bindTo);
        }
        PlantStore store = OpenStore.open(options.get(STORE), OpenStore.Access.of(options), secrets,
                metrics.<CommitListener>map(CommitMetrics::new).orElse(CommitListener.NONE), webhooks,
                kafka.<List<EventSink>>map(List::of).orElse(List.of()), closing);
        PlantStoreApi api = api(options, store, verifier, metrics);
        if (tracing.isPresent()) {
            api = api.withTracing(tracing.get()).withHealthTraced(options.get(TRACE_HEALTH));
        }

        // The management port first, so that it closes after the server and reports on the server's whole stop; it
        // is not ready before the server is.
        Optional<ManagementServer> management = metrics.isPresent()
                ? Optional.of(closing.opened("the management server", managementServer(options, metrics.get(),
                        tls.map(ReloadingTls::forManagement)), ManagementServer::close))
                : Optional.empty();
        PlantStoreServer server = closing.opened("the server", server(options, api, tls), PlantStoreServer::close);
        management.ifPresent(port -> port.readyWhen(server::isReady));

        stop.serving(server, options.get(DRAIN));

        // The first of the lines that say what runs, once it all opened: a start that fails prints its one line alone.
        out.println(BuildInfo.OF_THIS_BUILD.line());
        out.println("store " + OpenStore.describe(options.get(STORE)) + " (" + promise(options.get(STORE)) + ")");
        options.get(OIDC_ISSUER).ifPresent(issuer -> out.println("access tokens from " + issuer + " for audience "
                + options.get(OIDC_AUDIENCE).orElseThrow()
                + " (its keys are fetched when a token first needs them)"));
        webhooks.ifPresent(w -> out.println("webhooks to " + w.receivers().size() + " receiver"
                + (w.receivers().size() == 1 ? "" : "s") + ", each event retried for " + w.retryPeriod().toHours()
                + " h"));
        webhookConfig.ifPresent(config -> config.publicKeys().forEach(key ->
                out.println("webhooks signed with Ed25519 key " + key + " (receivers verify with it)")));
        kafka.ifPresent(sink -> out.println("events to Kafka topic " + sink.topic() + " at " + sink.bootstrapServers()
                + ", each event retried for " + sink.retryPeriod().toHours() + " h"));
        tracing.ifPresent(sdk -> out.println("traces exported as the OTEL_* variables say"));
        String scheme = tls.isPresent() ? "https://" : "http://";
        tls.ifPresent(keys -> out.println("TLS 1.3 and 1.2, HTTP/2 and HTTP/1.1, certificate " + keys.describe()));
        management.ifPresent(m -> out.println("plantstore management on " + scheme
                + hostForUrl(options.get(MANAGEMENT_HOST)) + ":" + m.port()));
        String url = scheme + hostForUrl(options.get(HOST)) + ":" + server.port();
        generatedToken.ifPresent(token -> printGeneratedToken(out, token, url, options.tlsFiles()));
        // Last, so that whoever waits for this line finds everything above it already printed.
        out.println("plantstore listening on " + url);
    }

    /**
     * The identity provider's verifier first: it refuses what is not a JWT by its shape alone, while the static
     * tokens' check hashes whatever it is given, and a JWT is then hashed once rather than twice.
     */
    private static TokenVerifier verifier(Options options, Options.Secrets secrets, Map<String, String> tokens,
                                          Closing closing) throws UsageException {
        List<TokenVerifier> accepted = new ArrayList<>();
        if (options.get(OIDC_ISSUER).isPresent()) {
            var oidc = OidcTokenVerifier.start(options.get(OIDC_ISSUER).get(), options.get(OIDC_AUDIENCE).orElseThrow(),
                    options.get(OIDC_CLOCK_SKEW));
            accepted.add(closing.opened("the identity provider's token verifier", oidc, OidcTokenVerifier::close));
        }
        if (options.get(TOKENS_FILE).isPresent()) {
            var reloading = ReloadingTokens.watch(options.get(TOKENS_FILE).get(),
                    () -> staticTokens(Tokens.named(secrets.tokens(), options.get(TOKENS_FILE))),
                    ReloadingTokens.CHECK_EVERY);
            accepted.add(closing.opened("the tokens file's watch", reloading, ReloadingTokens::close));
        } else if (!tokens.isEmpty()) {
            accepted.add(staticTokens(tokens));
        }
        return TokenVerifier.firstOf(accepted);
    }

    /** The API as the options configure it; every value was checked when the options were parsed. */
    private static PlantStoreApi api(Options options, PlantStore store, TokenVerifier verifier,
                                     Optional<PrometheusMeterRegistry> metrics) {
        PlantStoreApi api = PlantStoreApi.of(store, verifier)
                .withMaxBodyBytes(options.get(MAX_BODY_BYTES))
                .withDocs(options.get(DOCS))
                .withAuthFailureLimit(options.get(AUTH_FAILURE_LIMIT))
                .withCorsOrigins(options.get(CORS_ORIGINS))
                .withTrustedProxies(options.get(TRUSTED_PROXIES))
                .withScopes(options.get(OIDC_CREATE_SCOPE), options.get(OIDC_DELETE_SCOPE));
        if (options.get(OIDC_ISSUER).isPresent()) {
            api = api.withDocumentedIssuer(options.get(OIDC_ISSUER).get());
        }
        return metrics.isPresent() ? api.withMetrics(metrics.get()) : api;
    }

    private static PlantStoreServer server(Options options, PlantStoreApi api, Optional<ReloadingTls> tls)
            throws StartupException {
        var limits = new ClientLimits(options.get(IDLE_TIMEOUT), options.get(MAX_CONNECTIONS),
                options.get(MIN_BODY_RATE));
        try {
            return tls.isPresent()
                    ? PlantStoreServer.start(api, options.get(HOST), options.get(PORT), limits, tls.get().forApi())
                    : PlantStoreServer.start(api, options.get(HOST), options.get(PORT), limits);
        } catch (UncheckedIOException e) {
            throw new StartupException("cannot listen on " + options.get(HOST) + ":" + options.get(PORT) + ": "
                    + Failures.rootMessage(e));
        }
    }

    private static ManagementServer managementServer(Options options, PrometheusMeterRegistry metrics,
                                                     Optional<SslContextFactory.Server> tls) throws StartupException {
        try {
            return ManagementServer.start(options.get(MANAGEMENT_HOST), options.get(MANAGEMENT_PORT).getAsInt(),
                    metrics, tls);
        } catch (JavalinBindException e) {
            throw new StartupException("cannot listen on " + options.get(MANAGEMENT_HOST) + ":"
                    + options.get(MANAGEMENT_PORT).getAsInt() + " (management): " + Failures.rootMessage(e));
        }
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

    /** What runs: the build's version and commit, and JVM memory, garbage collection and threads. */
    private static PrometheusMeterRegistry measured(PrometheusMeterRegistry registry) {
        BuildInfo.OF_THIS_BUILD.bindTo(registry);
        new JvmMemoryMetrics().bindTo(registry);
        new JvmGcMetrics().bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        return registry;
    }

    private static void printGeneratedToken(Console out, String token, String url, Optional<TlsFiles> tls) {
        String local = url.replace("://0.0.0.0:", "://127.0.0.1:").replace("://[::]:", "://[::1]:");
        // curl trusts the served certificate itself, so that the lines work with a self-signed one too.
        String curl = tls.map(files -> "curl -i --cacert " + shellWord(files.cert().toString()) + " ")
                .orElse("curl -i ");
        out.println("No token configured (PLANTSTORE_TOKENS or --tokens-file),"
                + " so this run accepts one generated token:");
        out.println("  " + token);
        out.println("Try it" + (tls.flatMap(TlsFiles::clientCa).isPresent()
                ? ", adding curl's --cert and --key for a client certificate:" : ":"));
        out.println("  " + curl + "-X POST " + local + "/plants -H 'Authorization: Bearer " + token + "' \\");
        out.println("       -H 'Content-Type: application/json'"
                + " -d '{\"id\":1,\"name\":\"Monstera\",\"tag\":\"aroid\"}'");
        out.println("  " + curl + "-X DELETE " + local + "/plants/1 -H 'Authorization: Bearer " + token + "'");
    }

    /** {@code text} as one word for a POSIX shell: as it is when nothing in it is special, else single-quoted. */
    private static String shellWord(String text) {
        return text.matches("[A-Za-z0-9/._+:,=@%-]+") ? text : "'" + text.replace("'", "'\\''") + "'";
    }

    private static String hostForUrl(String host) {
        return host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host;
    }
}
