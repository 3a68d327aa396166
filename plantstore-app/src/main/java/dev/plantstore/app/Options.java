package dev.plantstore.app;

import static dev.plantstore.app.OptionValues.parseInt;
import static dev.plantstore.app.OptionValues.parseList;
import static dev.plantstore.app.OptionValues.parseSeconds;
import static dev.plantstore.app.OptionValues.requireNonBlank;

import dev.plantstore.app.Option.Given;
import dev.plantstore.http.ClientLimits;
import dev.plantstore.http.PlantStoreApi;
import dev.plantstore.kafka.KafkaSink;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The server's settings, each from its flag, else its environment variable, else its default; secrets come only from
 * the environment, never a flag ({@code ps} shows flags). Each option is declared once, a constant listed in
 * {@link #TABLE} (flag, value, help line, parser, default), from which the variable, {@code --help} and defaults
 * follow, and read typed: {@code options.get(Options.PORT)}. Our own table rather than picocli's: its environment
 * fallback forgets whether a value came from the flag or the variable, which every refusal names. To add an option,
 * declare and list it, and add its row to docs/reference.md's options table ({@code OptionsTableTest} checks).
 */
final class Options {

    static final Option<String> HOST = Option.of("--host", "HOST", "address to listen on",
            OptionValues::requireNonBlank, "0.0.0.0");
    static final Option<Integer> PORT = Option.of("--port", "PORT", "port to listen on, 0 for any free port",
            given -> parseInt(given, 0, 65_535), "8080");
    static final Option<Integer> MAX_BODY_BYTES = Option.of("--max-body-bytes", "N", "largest request body accepted",
            given -> parseInt(given, 1, Integer.MAX_VALUE - 1), String.valueOf(PlantStoreApi.DEFAULT_MAX_BODY_BYTES));
    static final Option<Optional<Path>> TOKENS_FILE = Option.withoutDefault("--tokens-file", "FILE",
            "bearer tokens, one per line, each line ending in a newline; blank lines and whole lines starting with # "
                    + "are skipped; read again once it changes and is stable",
            given -> Optional.of(Path.of(requireNonBlank(given))), Optional.empty(), "");
    static final Option<StoreSpec> STORE = Option.of("--store", "STORE", """
            where plants are kept:
              memory                 in this process only, gone on exit
              sqlite:PATH            a SQLite file, every acknowledged write on disk
              jdbc:postgresql://...  PostgreSQL, shared by several instances; the user and password
                                     come from the URL or from PLANTSTORE_DB_USER and
                                     PLANTSTORE_DB_PASSWORD""",
            given -> StoreSpec.parse(given.source(), given.value()), StoreSpec.DEFAULT);
    static final Option<Boolean> MIGRATE = Option.of("--migrate", "on|off",
            "on: create or migrate the store's tables at start; off: change no table, and refuse a database whose "
                    + "schema is behind this release (java -jar plantstore.jar migrate brings it up to date)",
            OptionValues::parseOnOff, "on");
    /**
     * At least two: one for the writer's batch, one for a health check or a webhook delivery beside it. The default is
     * the size the pool had before it could be set.
     */
    static final Option<Integer> DB_POOL_SIZE = Option.of("--db-pool-size", "N",
            "connections this instance keeps to PostgreSQL at most; all instances together must stay below the "
                    + "server's max_connections",
            given -> parseInt(given, 2, 1_000), "8");
    static final Option<Boolean> DOCS = Option.of("--docs", "on|off", "serve /openapi.yaml, /openapi.json and /docs",
            OptionValues::parseOnOff, "on");
    static final Option<List<String>> CORS_ORIGINS = Option.withoutDefault("--cors-origins", "LIST",
            "comma-separated origins whose pages may call the API from a browser, such as https://docs.example.com, "
                    + "or * for any",
            given -> parseList(given, PlantStoreApi::requireCorsOrigin), List.of(), "none");
    static final Option<Integer> AUTH_FAILURE_LIMIT = Option.of("--auth-failure-limit", "N",
            "refused tokens a client address may send per minute before it gets 429, 0 for no limit",
            given -> parseInt(given, 0, 1_000_000), String.valueOf(PlantStoreApi.DEFAULT_AUTH_FAILURE_LIMIT));
    static final Option<List<String>> TRUSTED_PROXIES = Option.withoutDefault("--trusted-proxies", "LIST",
            "comma-separated addresses or CIDR blocks (10.0.0.0/8, 2001:db8::/32) of reverse proxies you run: from "
                    + "them, the client is the right-most address in X-Forwarded-For (else Forwarded) that is not one "
                    + "of them, for the refused-token limit and the access line; any other peer's such headers are "
                    + "ignored",
            given -> parseList(given, PlantStoreApi::requireTrustedProxy), List.of(), "none");
    static final Option<Duration> IDLE_TIMEOUT = Option.of("--idle-timeout", "SECONDS",
            "close a connection silent this long: idle, stalled in its headers, or in a body, which gets 408",
            given -> parseSeconds(given, 1, 3_600),
            String.valueOf(ClientLimits.DEFAULT_IDLE_TIMEOUT.toSeconds()));
    static final Option<OptionalInt> MANAGEMENT_PORT = Option.withoutDefault("--management-port", "PORT",
            "also serve GET /metrics (Prometheus), /health/live and /health/ready, without a token, on this port, "
                    + "0 for any free port",
            given -> OptionalInt.of(parseInt(given, 0, 65_535)), OptionalInt.empty(), "off");
    static final Option<String> MANAGEMENT_HOST = Option.of("--management-host", "HOST",
            "address the management port listens on", OptionValues::requireNonBlank, "127.0.0.1");
    static final Option<LogLines.Format> LOG_FORMAT = Option.of("--log-format", "FORMAT",
            "text, or json for one JSON object per line", OptionValues::parseLogFormat, "text");
    static final Option<Boolean> TRACE_HEALTH = Option.of("--trace-health", "on|off",
            "when tracing is on (OTEL_* below), also trace the probes of the API's port (/health, /health/live, "
                    + "/health/ready), each of which makes a trace; the management port's are never traced",
            OptionValues::parseOnOff, "off");
    /**
     * Long enough for a load balancer checking readiness every 2 s to see two failed checks (HAProxy's
     * {@code inter 2s fall 2}, Kubernetes' {@code periodSeconds: 2, failureThreshold: 2}) with a second to spare.
     */
    static final Option<Duration> DRAIN = Option.of("--drain-seconds", "N",
            "on SIGTERM, report not ready and keep serving this long before stopping, so a load balancer stops "
                    + "sending requests first",
            given -> parseSeconds(given, 0, 600), "5");
    static final Option<Integer> MAX_CONNECTIONS = Option.of("--max-connections", "N",
            "open connections at most; past it new ones wait in the system's accept queue until one closes",
            given -> parseInt(given, 1, 1_000_000), String.valueOf(ClientLimits.DEFAULT_MAX_CONNECTIONS));
    static final Option<Integer> MIN_BODY_RATE = Option.of("--min-body-rate", "BYTES",
            "bytes per second a request body must average after its first 5 s, else 408 and the connection is "
                    + "closed; 0 for no minimum",
            given -> parseInt(given, 0, 100_000_000), String.valueOf(ClientLimits.DEFAULT_MIN_BODY_BYTES_PER_SECOND));
    static final Option<List<URI>> WEBHOOK_URL = Option.withoutDefault("--webhook-url", "URLS",
            "comma-separated http or https URLs that get each plant event, signed as Standard Webhooks (the secret "
                    + "from PLANTSTORE_WEBHOOK_SECRET or --webhook-secret-file, the Ed25519 signing key from "
                    + "PLANTSTORE_WEBHOOK_SIGNING_KEY or --webhook-signing-key-file, or both)",
            OptionValues::parseUrls, List.of(), "none");
    static final Option<Optional<Path>> WEBHOOK_SECRET_FILE = Option.withoutDefault("--webhook-secret-file", "FILE",
            "the webhooks' signing secret, whsec_ and base64; while one is replaced, the new and the old one, each "
                    + "on a line of its own",
            given -> Optional.of(Path.of(requireNonBlank(given))), Optional.empty(), "");
    static final Option<Optional<Path>> WEBHOOK_SIGNING_KEY_FILE = Option.withoutDefault("--webhook-signing-key-file",
            "FILE", "the webhooks' Ed25519 signing key, whsk_ and base64 (made by webhooks signing-key), whose public "
                    + "key receivers verify with; while one is replaced, the new and the old one, each on a line of "
                    + "its own", given -> Optional.of(Path.of(requireNonBlank(given))), Optional.empty(), "");

    static final Option<Optional<String>> KAFKA_BOOTSTRAP_SERVERS = Option.withoutDefault(
            "--kafka-bootstrap-servers", "HOST:PORT[,...]",
            "Kafka brokers that get each plant event as a record of --kafka-topic, a CloudEvent keyed by its plant",
            given -> Optional.of(KafkaConfig.parseServers(given)), Optional.empty(), "none");
    static final Option<String> KAFKA_TOPIC = Option.of("--kafka-topic", "NAME",
            "the Kafka topic the plant events go to", KafkaConfig::parseTopic, KafkaSink.DEFAULT_TOPIC);
    static final Option<Optional<Path>> KAFKA_CONFIG_FILE = Option.withoutDefault("--kafka-config-file", "FILE",
            "Kafka client properties, as Kafka's own tools take them (security.protocol, sasl.*, ssl.*), in a file "
                    + "only its owner may read",
            given -> Optional.of(Path.of(requireNonBlank(given))), Optional.empty(), "");

    static final Option<Optional<URI>> OIDC_ISSUER = Option.withoutDefault("--oidc-issuer", "URL",
            "also accept JWT access tokens from this OpenID Connect / OAuth 2.0 issuer, exactly as its tokens' iss "
                    + "says; its keys are found through {issuer}/.well-known/openid-configuration",
            given -> Optional.of(OptionValues.parseIssuer(given)), Optional.empty(), "none");
    static final Option<Optional<String>> OIDC_AUDIENCE = Option.withoutDefault("--oidc-audience", "AUD",
            "the audience the issuer's tokens must name in aud; required with --oidc-issuer",
            given -> Optional.of(requireNonBlank(given)), Optional.empty(), "");
    static final Option<Duration> OIDC_CLOCK_SKEW = Option.of("--oidc-clock-skew", "SECONDS",
            "how far the issuer's clock may be from this one, for exp, nbf and iat",
            given -> parseSeconds(given, 0, 600), "30");
    static final Option<String> OIDC_CREATE_SCOPE = Option.of("--oidc-create-scope", "SCOPE",
            "the scope a token needs to create plants (static tokens have every scope)", OptionValues::parseScope,
            PlantStoreApi.DEFAULT_CREATE_SCOPE);
    static final Option<String> OIDC_DELETE_SCOPE = Option.of("--oidc-delete-scope", "SCOPE",
            "the scope a token needs to delete plants", OptionValues::parseScope, PlantStoreApi.DEFAULT_DELETE_SCOPE);

    /** Every option, in the order {@code --help} lists them and their values are checked. */
    static final List<Option<?>> TABLE = List.of(HOST, PORT, MAX_BODY_BYTES, TOKENS_FILE, STORE, MIGRATE,
            DB_POOL_SIZE, DOCS, CORS_ORIGINS, AUTH_FAILURE_LIMIT, TRUSTED_PROXIES, IDLE_TIMEOUT, MANAGEMENT_PORT,
            MANAGEMENT_HOST, LOG_FORMAT, TRACE_HEALTH, DRAIN, MAX_CONNECTIONS, MIN_BODY_RATE, WEBHOOK_URL,
            WEBHOOK_SECRET_FILE, WEBHOOK_SIGNING_KEY_FILE, KAFKA_BOOTSTRAP_SERVERS, KAFKA_TOPIC, KAFKA_CONFIG_FILE,
            OIDC_ISSUER, OIDC_AUDIENCE, OIDC_CLOCK_SKEW, OIDC_CREATE_SCOPE, OIDC_DELETE_SCOPE,
            TlsOptions.CERT_FILE, TlsOptions.KEY_FILE, TlsOptions.KEY_PASSWORD_FILE, TlsOptions.CLIENT_CA_FILE);

    static final Secret TOKENS = new Secret("PLANTSTORE_TOKENS", "bearer tokens, comma-separated, used together with "
            + "--tokens-file; with no token configured, one is generated and printed at start-up");
    static final Secret DB_USER = new Secret("PLANTSTORE_DB_USER", "PostgreSQL user, if the --store URL names none");
    static final Secret DB_PASSWORD = new Secret("PLANTSTORE_DB_PASSWORD",
            "PostgreSQL password, if the --store URL gives none");
    static final Secret WEBHOOK_SECRET = new Secret("PLANTSTORE_WEBHOOK_SECRET", "the webhooks' signing secret, "
            + "whsec_ and base64, instead of --webhook-secret-file; several separated by spaces while one is replaced");
    static final Secret WEBHOOK_SIGNING_KEY = new Secret("PLANTSTORE_WEBHOOK_SIGNING_KEY", "the webhooks' Ed25519 "
            + "signing key, whsk_ and base64, instead of --webhook-signing-key-file; several separated by spaces while "
            + "one is replaced");

    /** Every value taken from the environment alone. */
    static final List<Secret> SECRETS = List.of(TOKENS, DB_USER, DB_PASSWORD, WEBHOOK_SECRET, WEBHOOK_SIGNING_KEY);

    static final String USAGE = Help.usage(TABLE, List.of(Action.values()), SECRETS);

    static Options parse(List<String> args, Map<String, String> env) throws UsageException {
        for (Action action : Action.values()) {
            if (action.flags().stream().anyMatch(args::contains)) {
                return from(Map.of(), Optional.of(action));
            }
        }
        Map<String, Option<?>> byFlag = new HashMap<>();
        Map<String, Given> given = new HashMap<>();
        for (Option<?> option : TABLE) {
            byFlag.put(option.flag(), option);
            if (env.get(option.variable()) != null) {
                given.put(option.flag(), new Given(env.get(option.variable()), option.variable()));
            }
        }
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            int equals = arg.indexOf('=');
            String flag = arg.startsWith("--") && equals > 0 ? arg.substring(0, equals) : arg;
            if (flag.equals("--tokens") || flag.equals("--token")) {
                throw new UsageException(flag + " is not an option: a token on the command line is visible to every "
                        + "user through ps; use PLANTSTORE_TOKENS or --tokens-file");
            }
            if (flag.equals("--webhook-secret")) {
                throw new UsageException(flag + " is not an option: a secret on the command line is visible to every "
                        + "user through ps; use PLANTSTORE_WEBHOOK_SECRET or --webhook-secret-file");
            }
            if (flag.equals("--webhook-signing-key")) {
                throw new UsageException(flag + " is not an option: a key on the command line is visible to every "
                        + "user through ps; use PLANTSTORE_WEBHOOK_SIGNING_KEY or --webhook-signing-key-file");
            }
            if (!byFlag.containsKey(flag)) {
                throw new UsageException(
                        (arg.startsWith("-") ? "unknown option " : "unexpected argument ") + arg + " (see --help)");
            }
            if (equals > 0 && arg.startsWith("--")) {
                given.put(flag, new Given(arg.substring(equals + 1), flag));
            } else if (i + 1 < args.size()) {
                given.put(flag, new Given(args.get(++i), flag));
            } else {
                throw new UsageException(flag + " needs a value (see --help)");
            }
        }
        return from(given, Optional.empty());
    }

    /** The secrets in {@code env}: the one other place the environment is read for configuration. */
    static Secrets secrets(Map<String, String> env) {
        return new Secrets(TOKENS.in(env), DB_USER.in(env), DB_PASSWORD.in(env), WEBHOOK_SECRET.in(env),
                WEBHOOK_SIGNING_KEY.in(env));
    }

    /**
     * Tokens, database credentials and the webhooks' signing secret and key; {@link #toString()} shows which are set,
     * never their values.
     */
    record Secrets(Optional<String> tokens, Optional<String> databaseUser, Optional<String> databasePassword,
                   Optional<String> webhookSecret, Optional<String> webhookSigningKey) {

        @Override
        public String toString() {
            return "Secrets[tokens " + (tokens.isPresent() ? "set" : "unset") + ", database user "
                    + (databaseUser.isPresent() ? "set" : "unset") + ", database password "
                    + (databasePassword.isPresent() ? "set" : "unset") + ", webhook secret "
                    + (webhookSecret.isPresent() ? "set" : "unset") + ", webhook signing key "
                    + (webhookSigningKey.isPresent() ? "set" : "unset") + "]";
        }
    }

    private final Map<Option<?>, Object> values;
    private final Optional<Action> action;

    private Options(Map<Option<?>, Object> values, Optional<Action> action) {
        this.values = Map.copyOf(values);
        this.action = action;
    }

    /** The value of {@code option}: as given, else its default. */
    <T> T get(Option<T> option) {
        // Only from() fills the map, each option with what its own parser returned.
        @SuppressWarnings("unchecked")
        T value = (T) values.get(option);
        if (value == null) {
            throw new IllegalArgumentException(option.flag() + " is not in Options.TABLE");
        }
        return value;
    }

    /** The TLS files as given, if TLS is on. */
    Optional<TlsFiles> tlsFiles() {
        return get(TlsOptions.CERT_FILE).map(cert -> new TlsFiles(cert, get(TlsOptions.KEY_FILE).orElseThrow(),
                get(TlsOptions.KEY_PASSWORD_FILE), get(TlsOptions.CLIENT_CA_FILE)));
    }

    /** The action the command line asks for ({@code --help}, {@code --version}): then nothing else was read. */
    Optional<Action> action() {
        return action;
    }

    /**
     * The options that go together checked first; then each value parsed in the table's order, so that the first bad
     * one is the one refused.
     */
    private static Options from(Map<String, Given> given, Optional<Action> action) throws UsageException {
        if (action.isEmpty() && OIDC_ISSUER.valueIn(given).isPresent() != OIDC_AUDIENCE.valueIn(given).isPresent()) {
            throw new UsageException("--oidc-issuer and --oidc-audience go together: a token is accepted only for "
                    + "this server's audience");
        }
        if (action.isEmpty()) {
            TlsOptions.requireComplete(TlsOptions.CERT_FILE.valueIn(given).isPresent(),
                    TlsOptions.KEY_FILE.valueIn(given).isPresent(),
                    TlsOptions.KEY_PASSWORD_FILE.valueIn(given).isPresent(),
                    TlsOptions.CLIENT_CA_FILE.valueIn(given).isPresent());
        }
        Map<Option<?>, Object> values = new HashMap<>();
        for (Option<?> option : TABLE) {
            values.put(option, option.valueIn(given));
        }
        return new Options(values, action);
    }
}
