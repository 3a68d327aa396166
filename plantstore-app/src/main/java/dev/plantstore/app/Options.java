package dev.plantstore.app;

import dev.plantstore.http.ClientLimits;
import dev.plantstore.http.PlantStoreApi;
import dev.plantstore.http.PlantStoreServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The server's settings. Each comes from its flag, else from its environment variable, else from its default.
 * Tokens never come from a flag value, which any user could read with {@code ps}.
 */
record Options(String host, int port, int maxBodyBytes, Optional<Path> tokensFile, StoreSpec store, boolean docs,
               List<String> corsOrigins, int authFailureLimit, int idleTimeoutSeconds, OptionalInt managementPort,
               String managementHost, LogFormat logFormat, int drainSeconds, int maxConnections,
               int minBodyRate, boolean help) {

    /** How log lines are written: for people, or one JSON object per line for a collector. */
    enum LogFormat { TEXT, JSON }

    static final String DEFAULT_HOST = "0.0.0.0";
    static final int DEFAULT_PORT = 8080;
    static final int DEFAULT_IDLE_TIMEOUT_SECONDS = (int) PlantStoreServer.DEFAULT_IDLE_TIMEOUT.toSeconds();
    static final String DEFAULT_MANAGEMENT_HOST = "127.0.0.1";
    /**
     * Long enough for a load balancer checking readiness every 2 s to see two failed checks (HAProxy's
     * {@code inter 2s fall 2}, Kubernetes' {@code periodSeconds: 2, failureThreshold: 2}) with a second to spare.
     */
    static final int DEFAULT_DRAIN_SECONDS = 5;

    static final String USAGE = """
            Usage: java -jar plantstore.jar [options]

            Serves the Plant Store API: POST /plants, DELETE /plants/{id}, and GET /health, /health/live and
            /health/ready.

            Options (each falls back to its environment variable):
              --host HOST             address to listen on (PLANTSTORE_HOST, default 0.0.0.0)
              --port PORT             port to listen on, 0 for any free port (PLANTSTORE_PORT, default 8080)
              --max-body-bytes N      largest request body accepted (PLANTSTORE_MAX_BODY_BYTES, default 65536)
              --tokens-file FILE      bearer tokens, one per line; lines starting with # are comments
                                      (PLANTSTORE_TOKENS_FILE)
              --store STORE           where plants are kept (PLANTSTORE_STORE, default sqlite:plantstore.db):
                                        memory                  in this process only, gone on exit
                                        sqlite:PATH             a SQLite file, every acknowledged write on disk
                                        jdbc:postgresql://...   PostgreSQL, shared by several instances; the user
                                                                and password come from the URL or from
                                                                PLANTSTORE_DB_USER and PLANTSTORE_DB_PASSWORD
              --docs on|off           serve /openapi.yaml, /openapi.json and /docs (PLANTSTORE_DOCS, default on)
              --cors-origins LIST     comma-separated origins whose pages may call the API from a browser, such
                                      as https://docs.example.com, or * for any (PLANTSTORE_CORS_ORIGINS, default none)
              --auth-failure-limit N  refused tokens a client address may send per minute before it gets 429,
                                      0 for no limit (PLANTSTORE_AUTH_FAILURE_LIMIT, default 30)
              --idle-timeout SECONDS  close a connection silent this long: idle, stalled in its headers, or in
                                      a body, which gets 408 (PLANTSTORE_IDLE_TIMEOUT, default 30)
              --management-port PORT  also serve GET /metrics (Prometheus), /health/live and /health/ready, without
                                      a token, on this port, 0 for any free port (PLANTSTORE_MANAGEMENT_PORT,
                                      default off)
              --management-host HOST  address the management port listens on (PLANTSTORE_MANAGEMENT_HOST,
                                      default 127.0.0.1)
              --log-format FORMAT     text, or json for one JSON object per line (PLANTSTORE_LOG_FORMAT,
                                      default text)
              --drain-seconds N       on SIGTERM, report not ready and keep serving this long before stopping, so
                                      a load balancer stops sending requests first (PLANTSTORE_DRAIN_SECONDS,
                                      default 5)
              --max-connections N     open connections at most; past it new ones wait in the system's accept
                                      queue until one closes (PLANTSTORE_MAX_CONNECTIONS, default 10000)
              --min-body-rate BYTES   bytes per second a request body must average after its first 5 s, else
                                      408 and the connection is closed; 0 for no minimum
                                      (PLANTSTORE_MIN_BODY_RATE, default 256)
              -h, --help              print this help and exit

            Tokens also come from PLANTSTORE_TOKENS (comma-separated). With no token configured, one is
            generated and printed at start-up.
            """;

    /** Each option's flag and the environment variable it falls back to. */
    private static final Map<String, String> ENVIRONMENT_FALLBACK = Map.ofEntries(
            Map.entry("--host", "PLANTSTORE_HOST"),
            Map.entry("--port", "PLANTSTORE_PORT"),
            Map.entry("--max-body-bytes", "PLANTSTORE_MAX_BODY_BYTES"),
            Map.entry("--tokens-file", "PLANTSTORE_TOKENS_FILE"),
            Map.entry("--store", "PLANTSTORE_STORE"),
            Map.entry("--docs", "PLANTSTORE_DOCS"),
            Map.entry("--cors-origins", "PLANTSTORE_CORS_ORIGINS"),
            Map.entry("--auth-failure-limit", "PLANTSTORE_AUTH_FAILURE_LIMIT"),
            Map.entry("--idle-timeout", "PLANTSTORE_IDLE_TIMEOUT"),
            Map.entry("--management-port", "PLANTSTORE_MANAGEMENT_PORT"),
            Map.entry("--management-host", "PLANTSTORE_MANAGEMENT_HOST"),
            Map.entry("--log-format", "PLANTSTORE_LOG_FORMAT"),
            Map.entry("--drain-seconds", "PLANTSTORE_DRAIN_SECONDS"),
            Map.entry("--max-connections", "PLANTSTORE_MAX_CONNECTIONS"),
            Map.entry("--min-body-rate", "PLANTSTORE_MIN_BODY_RATE"));

    /** A value as given, and where it came from (the flag or the variable), for the message if it is bad. */
    private record Given(String value, String source) {
    }

    static Options parse(List<String> args, Map<String, String> env) throws UsageException {
        if (args.contains("-h") || args.contains("--help")) {
            return new Options(DEFAULT_HOST, DEFAULT_PORT, PlantStoreApi.DEFAULT_MAX_BODY_BYTES, Optional.empty(),
                    StoreSpec.parse("default", StoreSpec.DEFAULT), true, List.of(),
                    PlantStoreApi.DEFAULT_AUTH_FAILURE_LIMIT, DEFAULT_IDLE_TIMEOUT_SECONDS, OptionalInt.empty(),
                    DEFAULT_MANAGEMENT_HOST, LogFormat.TEXT, DEFAULT_DRAIN_SECONDS,
                    ClientLimits.DEFAULT_MAX_CONNECTIONS, ClientLimits.DEFAULT_MIN_BODY_BYTES_PER_SECOND, true);
        }
        Map<String, Given> given = new HashMap<>();
        ENVIRONMENT_FALLBACK.forEach((flag, variable) -> {
            if (env.get(variable) != null) {
                given.put(flag, new Given(env.get(variable), variable));
            }
        });
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            int equals = arg.indexOf('=');
            String flag = arg.startsWith("--") && equals > 0 ? arg.substring(0, equals) : arg;
            if (flag.equals("--tokens") || flag.equals("--token")) {
                throw new UsageException(flag + " is not an option: a token on the command line is visible to every "
                        + "user through ps; use PLANTSTORE_TOKENS or --tokens-file");
            }
            if (!ENVIRONMENT_FALLBACK.containsKey(flag)) {
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

        Given host = given.get("--host");
        Given port = given.get("--port");
        Given maxBodyBytes = given.get("--max-body-bytes");
        Given tokensFile = given.get("--tokens-file");
        Given store = given.get("--store");
        Given docs = given.get("--docs");
        Given corsOrigins = given.get("--cors-origins");
        Given authFailureLimit = given.get("--auth-failure-limit");
        Given idleTimeout = given.get("--idle-timeout");
        Given managementPort = given.get("--management-port");
        Given managementHost = given.get("--management-host");
        Given logFormat = given.get("--log-format");
        Given drainSeconds = given.get("--drain-seconds");
        Given maxConnections = given.get("--max-connections");
        Given minBodyRate = given.get("--min-body-rate");
        return new Options(
                host == null ? DEFAULT_HOST : requireNonBlank(host),
                port == null ? DEFAULT_PORT : parseInt(port, 0, 65_535),
                maxBodyBytes == null
                        ? PlantStoreApi.DEFAULT_MAX_BODY_BYTES
                        : parseInt(maxBodyBytes, 1, Integer.MAX_VALUE - 1),
                tokensFile == null ? Optional.empty() : Optional.of(Path.of(requireNonBlank(tokensFile))),
                store == null
                        ? StoreSpec.parse("default", StoreSpec.DEFAULT)
                        : StoreSpec.parse(store.source(), store.value()),
                docs == null || parseOnOff(docs),
                corsOrigins == null ? List.of() : parseOrigins(corsOrigins.value()),
                authFailureLimit == null
                        ? PlantStoreApi.DEFAULT_AUTH_FAILURE_LIMIT
                        : parseInt(authFailureLimit, 0, 1_000_000),
                idleTimeout == null ? DEFAULT_IDLE_TIMEOUT_SECONDS : parseInt(idleTimeout, 1, 3_600),
                managementPort == null ? OptionalInt.empty() : OptionalInt.of(parseInt(managementPort, 0, 65_535)),
                managementHost == null ? DEFAULT_MANAGEMENT_HOST : requireNonBlank(managementHost),
                logFormat == null ? LogFormat.TEXT : parseLogFormat(logFormat),
                drainSeconds == null ? DEFAULT_DRAIN_SECONDS : parseInt(drainSeconds, 0, 600),
                maxConnections == null ? ClientLimits.DEFAULT_MAX_CONNECTIONS : parseInt(maxConnections, 1, 1_000_000),
                minBodyRate == null
                        ? ClientLimits.DEFAULT_MIN_BODY_BYTES_PER_SECOND
                        : parseInt(minBodyRate, 0, 100_000_000),
                false);
    }

    private static LogFormat parseLogFormat(Given given) throws UsageException {
        return switch (given.value().strip().toLowerCase(Locale.ROOT)) {
            case "text" -> LogFormat.TEXT;
            case "json" -> LogFormat.JSON;
            default -> throw new UsageException(given.source() + " must be text or json, got '" + given.value() + "'");
        };
    }

    private static boolean parseOnOff(Given given) throws UsageException {
        return switch (given.value().strip().toLowerCase(Locale.ROOT)) {
            case "on", "true", "yes" -> true;
            case "off", "false", "no" -> false;
            default -> throw new UsageException(given.source() + " must be on or off, got '" + given.value() + "'");
        };
    }

    /** Split only; each origin's form is checked by the API, whose message {@link Main} passes on. */
    private static List<String> parseOrigins(String value) {
        List<String> origins = new ArrayList<>();
        for (String origin : value.split(",")) {
            if (!origin.isBlank()) {
                origins.add(origin.strip());
            }
        }
        return List.copyOf(origins);
    }

    private static String requireNonBlank(Given given) throws UsageException {
        if (given.value().isBlank()) {
            throw new UsageException(given.source() + " must not be empty");
        }
        return given.value().strip();
    }

    private static int parseInt(Given given, int min, int max) throws UsageException {
        try {
            int parsed = Integer.parseInt(given.value().strip());
            if (parsed >= min && parsed <= max) {
                return parsed;
            }
        } catch (NumberFormatException e) {
            // Falls through to the one message that covers both kinds of bad value.
        }
        throw new UsageException(given.source() + " must be an integer from " + min + " to " + max + ", got '"
                + given.value() + "'");
    }
}
