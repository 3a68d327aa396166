package dev.plantstore.app;

import dev.plantstore.http.PlantStoreApi;
import dev.plantstore.http.PlantStoreServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The server's settings. Each comes from its flag, else from its environment variable, else from its default.
 * Tokens never come from a flag value, which any user could read with {@code ps}.
 */
record Options(String host, int port, int maxBodyBytes, Optional<Path> tokensFile, StoreSpec store, boolean docs,
               List<String> corsOrigins, int authFailureLimit, int idleTimeoutSeconds, boolean help) {

    static final String DEFAULT_HOST = "0.0.0.0";
    static final int DEFAULT_PORT = 8080;
    static final int DEFAULT_IDLE_TIMEOUT_SECONDS = (int) PlantStoreServer.DEFAULT_IDLE_TIMEOUT.toSeconds();

    static final String USAGE = """
            Usage: java -jar plantstore.jar [options]

            Serves the Plant Store API: POST /plants, DELETE /plants/{id}, GET /health.

            Options (each falls back to its environment variable):
              --host HOST             address to listen on (PLANTSTORE_HOST, default 0.0.0.0)
              --port PORT             port to listen on, 0 for any free port (PLANTSTORE_PORT, default 8080)
              --max-body-bytes N      largest request body accepted (PLANTSTORE_MAX_BODY_BYTES, default 65536)
              --tokens-file FILE      bearer tokens, one per line, # starts a comment (PLANTSTORE_TOKENS_FILE)
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
              -h, --help              print this help and exit

            Tokens also come from PLANTSTORE_TOKENS (comma-separated). With no token configured, one is
            generated and printed at start-up.
            """;

    static Options parse(List<String> args, Map<String, String> env) throws UsageException {
        String host = env.get("PLANTSTORE_HOST");
        String port = env.get("PLANTSTORE_PORT");
        String maxBodyBytes = env.get("PLANTSTORE_MAX_BODY_BYTES");
        String tokensFile = env.get("PLANTSTORE_TOKENS_FILE");
        String store = env.get("PLANTSTORE_STORE");
        String docs = env.get("PLANTSTORE_DOCS");
        String corsOrigins = env.get("PLANTSTORE_CORS_ORIGINS");
        String authFailureLimit = env.get("PLANTSTORE_AUTH_FAILURE_LIMIT");
        String authFailureLimitSource = "PLANTSTORE_AUTH_FAILURE_LIMIT";
        String idleTimeout = env.get("PLANTSTORE_IDLE_TIMEOUT");
        String idleTimeoutSource = "PLANTSTORE_IDLE_TIMEOUT";
        String hostSource = "PLANTSTORE_HOST";
        String portSource = "PLANTSTORE_PORT";
        String maxBodySource = "PLANTSTORE_MAX_BODY_BYTES";
        String tokensFileSource = "PLANTSTORE_TOKENS_FILE";
        String storeSource = "PLANTSTORE_STORE";
        String docsSource = "PLANTSTORE_DOCS";

        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            if (arg.equals("-h") || arg.equals("--help")) {
                return new Options(DEFAULT_HOST, DEFAULT_PORT, PlantStoreApi.DEFAULT_MAX_BODY_BYTES, Optional.empty(),
                        StoreSpec.parse("default", StoreSpec.DEFAULT), true, List.of(),
                        PlantStoreApi.DEFAULT_AUTH_FAILURE_LIMIT, DEFAULT_IDLE_TIMEOUT_SECONDS, true);
            }
            int equals = arg.indexOf('=');
            String flag = arg.startsWith("--") && equals > 0 ? arg.substring(0, equals) : arg;
            String value;
            switch (flag) {
                case "--host", "--port", "--max-body-bytes", "--tokens-file", "--store", "--docs", "--cors-origins",
                        "--auth-failure-limit", "--idle-timeout" -> {
                    if (equals > 0 && arg.startsWith("--")) {
                        value = arg.substring(equals + 1);
                    } else if (i + 1 < args.size()) {
                        value = args.get(++i);
                    } else {
                        throw new UsageException(flag + " needs a value (see --help)");
                    }
                }
                case "--tokens", "--token" -> throw new UsageException(flag + " is not an option: a token on the "
                        + "command line is visible to every user through ps; use PLANTSTORE_TOKENS or --tokens-file");
                default -> throw new UsageException(
                        (arg.startsWith("-") ? "unknown option " : "unexpected argument ") + arg + " (see --help)");
            }
            switch (flag) {
                case "--host" -> {
                    host = value;
                    hostSource = flag;
                }
                case "--port" -> {
                    port = value;
                    portSource = flag;
                }
                case "--max-body-bytes" -> {
                    maxBodyBytes = value;
                    maxBodySource = flag;
                }
                case "--store" -> {
                    store = value;
                    storeSource = flag;
                }
                case "--docs" -> {
                    docs = value;
                    docsSource = flag;
                }
                case "--cors-origins" -> corsOrigins = value;
                case "--auth-failure-limit" -> {
                    authFailureLimit = value;
                    authFailureLimitSource = flag;
                }
                case "--idle-timeout" -> {
                    idleTimeout = value;
                    idleTimeoutSource = flag;
                }
                default -> {
                    tokensFile = value;
                    tokensFileSource = flag;
                }
            }
        }

        return new Options(
                host == null ? DEFAULT_HOST : requireNonBlank(hostSource, host),
                port == null ? DEFAULT_PORT : parseInt(portSource, port, 0, 65_535),
                maxBodyBytes == null
                        ? PlantStoreApi.DEFAULT_MAX_BODY_BYTES
                        : parseInt(maxBodySource, maxBodyBytes, 1, Integer.MAX_VALUE - 1),
                tokensFile == null ? Optional.empty() : Optional.of(Path.of(requireNonBlank(tokensFileSource, tokensFile))),
                StoreSpec.parse(storeSource, store == null ? StoreSpec.DEFAULT : store),
                docs == null || parseOnOff(docsSource, docs),
                corsOrigins == null ? List.of() : parseOrigins(corsOrigins),
                authFailureLimit == null
                        ? PlantStoreApi.DEFAULT_AUTH_FAILURE_LIMIT
                        : parseInt(authFailureLimitSource, authFailureLimit, 0, 1_000_000),
                idleTimeout == null ? DEFAULT_IDLE_TIMEOUT_SECONDS : parseInt(idleTimeoutSource, idleTimeout, 1, 3_600),
                false);
    }

    private static boolean parseOnOff(String source, String value) throws UsageException {
        return switch (value.strip().toLowerCase(Locale.ROOT)) {
            case "on", "true", "yes" -> true;
            case "off", "false", "no" -> false;
            default -> throw new UsageException(source + " must be on or off, got '" + value + "'");
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

    private static String requireNonBlank(String source, String value) throws UsageException {
        if (value.isBlank()) {
            throw new UsageException(source + " must not be empty");
        }
        return value.strip();
    }

    private static int parseInt(String source, String value, int min, int max) throws UsageException {
        try {
            int parsed = Integer.parseInt(value.strip());
            if (parsed >= min && parsed <= max) {
                return parsed;
            }
        } catch (NumberFormatException e) {
            // Falls through to the one message that covers both kinds of bad value.
        }
        throw new UsageException(source + " must be an integer from " + min + " to " + max + ", got '" + value + "'");
    }
}
