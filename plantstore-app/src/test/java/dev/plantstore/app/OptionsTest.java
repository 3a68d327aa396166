package dev.plantstore.app;

import static java.util.Map.entry;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class OptionsTest {

    private static Options parse(Map<String, String> env, String... args) throws UsageException {
        return Options.parse(List.of(args), env);
    }

    private static String refusal(Map<String, String> env, String... args) {
        return assertThrows(UsageException.class, () -> parse(env, args)).getMessage();
    }

    @Test
    void defaultsAreAllInterfacesPort8080And64KiB() throws UsageException {
        assertEquals(Map.<Option<?>, Object>ofEntries(
                entry(Options.HOST, "0.0.0.0"),
                entry(Options.PORT, 8080),
                entry(Options.MAX_BODY_BYTES, 65_536),
                entry(Options.TOKENS_FILE, Optional.empty()),
                entry(Options.STORE, new StoreSpec.Sqlite(Path.of("plantstore.db"))),
                entry(Options.MIGRATE, true),
                entry(Options.DB_POOL_SIZE, 8),
                entry(Options.DOCS, true),
                entry(Options.CORS_ORIGINS, List.of()),
                entry(Options.AUTH_FAILURE_LIMIT, 30),
                entry(Options.IDLE_TIMEOUT, Duration.ofSeconds(30)),
                entry(Options.MANAGEMENT_PORT, OptionalInt.empty()),
                entry(Options.MANAGEMENT_HOST, "127.0.0.1"),
                entry(Options.LOG_FORMAT, LogLines.Format.TEXT),
                entry(Options.TRACE_HEALTH, false),
                entry(Options.DRAIN, Duration.ofSeconds(5)),
                entry(Options.MAX_CONNECTIONS, 10_000),
                entry(Options.MIN_BODY_RATE, 256),
                entry(Options.WEBHOOK_URL, List.of()),
                entry(Options.WEBHOOK_SECRET_FILE, Optional.empty()),
                entry(Options.WEBHOOK_SIGNING_KEY_FILE, Optional.empty()),
                entry(Options.KAFKA_BOOTSTRAP_SERVERS, Optional.empty()),
                entry(Options.KAFKA_TOPIC, "plant-events"),
                entry(Options.KAFKA_CONFIG_FILE, Optional.empty()),
                entry(Options.OIDC_ISSUER, Optional.empty()),
                entry(Options.OIDC_AUDIENCE, Optional.empty()),
                entry(Options.OIDC_CLOCK_SKEW, Duration.ofSeconds(30)),
                entry(Options.OIDC_CREATE_SCOPE, "plants:create"),
                entry(Options.OIDC_DELETE_SCOPE, "plants:delete"),
                entry(TlsOptions.CERT_FILE, Optional.empty()),
                entry(TlsOptions.KEY_FILE, Optional.empty()),
                entry(TlsOptions.KEY_PASSWORD_FILE, Optional.empty()),
                entry(TlsOptions.CLIENT_CA_FILE, Optional.empty()),
                entry(Options.TRUSTED_PROXIES, List.of())),
                everyValue(parse(Map.of())));
    }

    @Test
    void flagsTakeTheirValueAfterASpaceOrAnEqualsSign() throws UsageException {
        var options = parse(Map.of(), "--host", "127.0.0.1", "--port=0", "--max-body-bytes", "1024",
                "--tokens-file=/etc/plantstore/tokens", "--store", "memory", "--docs", "off",
                "--cors-origins", "https://a.example, https://b.example:8443", "--auth-failure-limit", "0",
                "--idle-timeout", "5", "--management-port", "0", "--management-host=0.0.0.0", "--log-format", "JSON",
                "--trace-health", "on", "--drain-seconds", "0", "--max-connections", "500", "--min-body-rate", "0",
                "--webhook-url", "https://a.example/hook,http://b.example:8080/x", "--webhook-secret-file", "/etc/s",
                "--webhook-signing-key-file", "/etc/k", "--kafka-bootstrap-servers", "k1:9092,k2:9093",
                "--kafka-topic=orders", "--kafka-config-file", "/etc/kafka", "--trusted-proxies", "10.0.0.0/8, ::1",
                "--migrate", "off", "--db-pool-size=3");
        assertEquals(Map.<Option<?>, Object>ofEntries(
                entry(Options.HOST, "127.0.0.1"),
                entry(Options.PORT, 0),
                entry(Options.MAX_BODY_BYTES, 1024),
                entry(Options.TOKENS_FILE, Optional.of(Path.of("/etc/plantstore/tokens"))),
                entry(Options.STORE, new StoreSpec.Memory()),
                entry(Options.MIGRATE, false),
                entry(Options.DB_POOL_SIZE, 3),
                entry(Options.DOCS, false),
                entry(Options.CORS_ORIGINS, List.of("https://a.example", "https://b.example:8443")),
                entry(Options.AUTH_FAILURE_LIMIT, 0),
                entry(Options.IDLE_TIMEOUT, Duration.ofSeconds(5)),
                entry(Options.MANAGEMENT_PORT, OptionalInt.of(0)),
                entry(Options.MANAGEMENT_HOST, "0.0.0.0"),
                entry(Options.LOG_FORMAT, LogLines.Format.JSON),
                entry(Options.TRACE_HEALTH, true),
                entry(Options.DRAIN, Duration.ofSeconds(0)),
                entry(Options.MAX_CONNECTIONS, 500),
                entry(Options.MIN_BODY_RATE, 0),
                entry(Options.WEBHOOK_URL,
                        List.of(URI.create("https://a.example/hook"), URI.create("http://b.example:8080/x"))),
                entry(Options.WEBHOOK_SECRET_FILE, Optional.of(Path.of("/etc/s"))),
                entry(Options.WEBHOOK_SIGNING_KEY_FILE, Optional.of(Path.of("/etc/k"))),
                entry(Options.KAFKA_BOOTSTRAP_SERVERS, Optional.of("k1:9092,k2:9093")),
                entry(Options.KAFKA_TOPIC, "orders"),
                entry(Options.KAFKA_CONFIG_FILE, Optional.of(Path.of("/etc/kafka"))),
                entry(Options.OIDC_ISSUER, Optional.empty()),
                entry(Options.OIDC_AUDIENCE, Optional.empty()),
                entry(Options.OIDC_CLOCK_SKEW, Duration.ofSeconds(30)),
                entry(Options.OIDC_CREATE_SCOPE, "plants:create"),
                entry(Options.OIDC_DELETE_SCOPE, "plants:delete"),
                entry(TlsOptions.CERT_FILE, Optional.empty()),
                entry(TlsOptions.KEY_FILE, Optional.empty()),
                entry(TlsOptions.KEY_PASSWORD_FILE, Optional.empty()),
                entry(TlsOptions.CLIENT_CA_FILE, Optional.empty()),
                entry(Options.TRUSTED_PROXIES, List.of("10.0.0.0/8", "::1"))),
                everyValue(options));
    }

    @Test
    void anIdentityProviderIsConfiguredByFlagsOrTheEnvironment() throws UsageException {
        var flags = parse(Map.of(), "--oidc-issuer", "https://idp.example/realms/plants", "--oidc-audience",
                "plantstore", "--oidc-clock-skew", "5", "--oidc-create-scope", "write",
                "--oidc-delete-scope", "remove");
        var env = parse(Map.of("PLANTSTORE_OIDC_ISSUER", "https://idp.example/realms/plants",
                "PLANTSTORE_OIDC_AUDIENCE", "plantstore", "PLANTSTORE_OIDC_CLOCK_SKEW", "5",
                "PLANTSTORE_OIDC_CREATE_SCOPE", "write", "PLANTSTORE_OIDC_DELETE_SCOPE", "remove"));
        for (Options options : List.of(flags, env)) {
            assertEquals(Optional.of(URI.create("https://idp.example/realms/plants")),
                    options.get(Options.OIDC_ISSUER));
            assertEquals(Optional.of("plantstore"), options.get(Options.OIDC_AUDIENCE));
            assertEquals(Duration.ofSeconds(5), options.get(Options.OIDC_CLOCK_SKEW));
            assertEquals("write", options.get(Options.OIDC_CREATE_SCOPE));
            assertEquals("remove", options.get(Options.OIDC_DELETE_SCOPE));
        }
    }

    @Test
    void anIssuerNeedsAnAudienceAndAnHttpUrl() {
        var noAudience = assertThrows(UsageException.class,
                () -> parse(Map.of(), "--oidc-issuer", "https://idp.example/realms/plants"));
        assertEquals("--oidc-issuer and --oidc-audience go together: a token is accepted only for this server's "
                + "audience", noAudience.getMessage());
        assertThrows(UsageException.class, () -> parse(Map.of(), "--oidc-audience", "plantstore"));
        var notHttp = assertThrows(UsageException.class, () -> parse(Map.of(), "--oidc-issuer", "idp.example",
                "--oidc-audience", "plantstore"));
        assertEquals("--oidc-issuer must be an http or https URL without query or fragment, got 'idp.example'",
                notHttp.getMessage());
    }

    @Test
    void environmentVariablesAreTheFallback() throws UsageException {
        Map<String, String> env = Map.of("PLANTSTORE_HOST", "::1", "PLANTSTORE_PORT", "9000",
                "PLANTSTORE_MAX_BODY_BYTES", "10", "PLANTSTORE_TOKENS_FILE", "tokens.txt",
                "PLANTSTORE_STORE", "sqlite:/var/lib/plants.db", "PLANTSTORE_DOCS", "false",
                "PLANTSTORE_CORS_ORIGINS", "*", "PLANTSTORE_AUTH_FAILURE_LIMIT", "5", "PLANTSTORE_IDLE_TIMEOUT", "7");
        env = new java.util.HashMap<>(env);
        env.putAll(Map.of("PLANTSTORE_MANAGEMENT_PORT", "9090", "PLANTSTORE_MANAGEMENT_HOST", "10.0.0.1",
                "PLANTSTORE_LOG_FORMAT", "json", "PLANTSTORE_DRAIN_SECONDS", "12",
                "PLANTSTORE_MAX_CONNECTIONS", "20000", "PLANTSTORE_MIN_BODY_RATE", "1024",
                "PLANTSTORE_WEBHOOK_URL", "http://hooks.example/", "PLANTSTORE_WEBHOOK_SECRET_FILE", "secret",
                "PLANTSTORE_TRUSTED_PROXIES", "192.0.2.0/24"));
        env.put("PLANTSTORE_WEBHOOK_SIGNING_KEY_FILE", "signing-key");
        env.putAll(Map.of("PLANTSTORE_MIGRATE", "no", "PLANTSTORE_DB_POOL_SIZE", "40",
                "PLANTSTORE_TRACE_HEALTH", "on", "PLANTSTORE_KAFKA_BOOTSTRAP_SERVERS", "kafka:9092",
                "PLANTSTORE_KAFKA_TOPIC", "plants", "PLANTSTORE_KAFKA_CONFIG_FILE", "kafka.properties"));
        assertEquals(Map.<Option<?>, Object>ofEntries(
                entry(Options.HOST, "::1"),
                entry(Options.PORT, 9000),
                entry(Options.MAX_BODY_BYTES, 10),
                entry(Options.TOKENS_FILE, Optional.of(Path.of("tokens.txt"))),
                entry(Options.STORE, new StoreSpec.Sqlite(Path.of("/var/lib/plants.db"))),
                entry(Options.MIGRATE, false),
                entry(Options.DB_POOL_SIZE, 40),
                entry(Options.DOCS, false),
                entry(Options.CORS_ORIGINS, List.of("*")),
                entry(Options.AUTH_FAILURE_LIMIT, 5),
                entry(Options.IDLE_TIMEOUT, Duration.ofSeconds(7)),
                entry(Options.MANAGEMENT_PORT, OptionalInt.of(9090)),
                entry(Options.MANAGEMENT_HOST, "10.0.0.1"),
                entry(Options.LOG_FORMAT, LogLines.Format.JSON),
                entry(Options.TRACE_HEALTH, true),
                entry(Options.DRAIN, Duration.ofSeconds(12)),
                entry(Options.MAX_CONNECTIONS, 20_000),
                entry(Options.MIN_BODY_RATE, 1024),
                entry(Options.WEBHOOK_URL, List.of(URI.create("http://hooks.example/"))),
                entry(Options.WEBHOOK_SECRET_FILE, Optional.of(Path.of("secret"))),
                entry(Options.WEBHOOK_SIGNING_KEY_FILE, Optional.of(Path.of("signing-key"))),
                entry(Options.KAFKA_BOOTSTRAP_SERVERS, Optional.of("kafka:9092")),
                entry(Options.KAFKA_TOPIC, "plants"),
                entry(Options.KAFKA_CONFIG_FILE, Optional.of(Path.of("kafka.properties"))),
                entry(Options.OIDC_ISSUER, Optional.empty()),
                entry(Options.OIDC_AUDIENCE, Optional.empty()),
                entry(Options.OIDC_CLOCK_SKEW, Duration.ofSeconds(30)),
                entry(Options.OIDC_CREATE_SCOPE, "plants:create"),
                entry(Options.OIDC_DELETE_SCOPE, "plants:delete"),
                entry(TlsOptions.CERT_FILE, Optional.empty()),
                entry(TlsOptions.KEY_FILE, Optional.empty()),
                entry(TlsOptions.KEY_PASSWORD_FILE, Optional.empty()),
                entry(TlsOptions.CLIENT_CA_FILE, Optional.empty()),
                entry(Options.TRUSTED_PROXIES, List.of("192.0.2.0/24"))),
                everyValue(parse(env)));
    }

    @Test
    void aWebhookSecretIsNeverAFlagValue() {
        assertEquals("--webhook-secret is not an option: a secret on the command line is visible to every user "
                + "through ps; use PLANTSTORE_WEBHOOK_SECRET or --webhook-secret-file",
                refusal(Map.of(), "--webhook-secret", "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"));
        assertEquals("--webhook-signing-key is not an option: a key on the command line is visible to every user "
                + "through ps; use PLANTSTORE_WEBHOOK_SIGNING_KEY or --webhook-signing-key-file",
                refusal(Map.of(), "--webhook-signing-key=" + WebhookConfigTest.RFC_8032_SIGNING_KEY));
        assertEquals("--webhook-url: 'http://a b' is not a URL", refusal(Map.of(), "--webhook-url", "http://a b"));
    }

    @Test
    void aCorsOriginThatIsNoOriginIsRefusedWhileParsing() {
        assertEquals("--cors-origins: a CORS origin must look like https://example.com[:port] or be *",
                refusal(Map.of(), "--cors-origins", "https://a.example,docs.example.com"));
        assertEquals("PLANTSTORE_CORS_ORIGINS: a CORS origin must look like https://example.com[:port] or be *",
                refusal(Map.of("PLANTSTORE_CORS_ORIGINS", "https://a.example/path")));
    }

    @Test
    void aTrustedProxyThatIsNoAddressIsRefusedWhileParsing() {
        assertEquals("--trusted-proxies: a trusted proxy is an IP address or a CIDR block such as 10.0.0.0/8 or "
                + "2001:db8::/32, got '10.0.0.0/33'", refusal(Map.of(), "--trusted-proxies", "::1,10.0.0.0/33"));
    }

    @Test
    void aScopeThatIsNoScopeTokenIsRefusedWhileParsing() {
        assertEquals("--oidc-create-scope: a scope is printable ASCII without space, quote or backslash: plants create",
                refusal(Map.of(), "--oidc-create-scope", "plants create"));
        assertEquals("PLANTSTORE_OIDC_DELETE_SCOPE: a scope is printable ASCII without space, quote or backslash: "
                + "\"delete\"", refusal(Map.of("PLANTSTORE_OIDC_DELETE_SCOPE", "\"delete\"")));
    }

    @Test
    void aWebhookUrlThatIsNoHttpUrlIsRefusedWhileParsing() {
        assertEquals("--webhook-url: webhook URL ftp://hooks.example/x is not an absolute http or https URL with a "
                + "host", refusal(Map.of(), "--webhook-url", "https://a.example/x,ftp://hooks.example/x"));
        for (String fragment : List.of("part", "rate=0", "rate=10001", "rate=05", "rate=1.5", "rate=")) {
            assertEquals("PLANTSTORE_WEBHOOK_URL: webhook URL https://a.example/x has a fragment other than #rate=N, "
                    + "its ceiling of N requests a second (1 to 10000)",
                    refusal(Map.of("PLANTSTORE_WEBHOOK_URL", "https://a.example/x#" + fragment)));
        }
    }

    @Test
    void aWebhookUrlMayCarryItsRateCeilingAsItsFragment() throws UsageException {
        assertEquals(List.of(URI.create("https://a.example/x#rate=50"), URI.create("http://b.example/y#rate=10000")),
                parse(Map.of(), "--webhook-url", "https://a.example/x#rate=50,http://b.example/y#rate=10000")
                        .get(Options.WEBHOOK_URL));
    }

    @Test
    void aWebhookUrlWithAPortOutsideOneTo65535IsRefusedWhileParsingWithoutItsCredentials() {
        assertEquals("--webhook-url: webhook URL http://h.example:99999/x has a port outside 1 to 65535",
                refusal(Map.of(), "--webhook-url", "http://user:pw@h.example:99999/x?token=t0k"));
        assertEquals("PLANTSTORE_WEBHOOK_URL: webhook URL http://h.example:0/x has a port outside 1 to 65535",
                refusal(Map.of("PLANTSTORE_WEBHOOK_URL", "http://h.example:0/x")));
    }

    @Test
    void aFlagBeatsItsEnvironmentVariable() throws UsageException {
        assertEquals(7000, parse(Map.of("PLANTSTORE_PORT", "9000"), "--port", "7000").get(Options.PORT));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"-h", "--help"})
    void helpIsRecognisedBeforeAnythingElse(String flag) throws UsageException {
        assertEquals(Optional.of(Action.HELP),
                parse(Map.of("PLANTSTORE_PORT", "bad"), flag, "--nonsense").action());
    }

    @Test
    void versionIsRecognisedBeforeAnythingElseButHelp() throws UsageException {
        assertEquals(Optional.of(Action.VERSION),
                parse(Map.of("PLANTSTORE_PORT", "bad"), "--nonsense", "--version").action());
        assertEquals(Optional.of(Action.HELP), parse(Map.of(), "--version", "--help").action());
        assertEquals(Optional.empty(), parse(Map.of()).action());
    }

    @Test
    void aPoolOfFewerThanTwoConnectionsAndAMigrateOtherThanOnOrOffAreRefused() {
        assertEquals("--db-pool-size must be an integer from 2 to 1000, got '1'",
                refusal(Map.of(), "--db-pool-size", "1"));
        assertEquals("PLANTSTORE_MIGRATE must be on or off, got 'later'",
                refusal(Map.of("PLANTSTORE_MIGRATE", "later")));
    }

    @Test
    void badManagementLogAndDrainValuesAreRefusedNamingTheirSource() {
        assertEquals("--management-port must be an integer from 0 to 65535, got '70000'",
                refusal(Map.of(), "--management-port", "70000"));
        assertEquals("PLANTSTORE_LOG_FORMAT must be text or json, got 'xml'",
                refusal(Map.of("PLANTSTORE_LOG_FORMAT", "xml")));
        assertEquals("--drain-seconds must be an integer from 0 to 600, got '-1'",
                refusal(Map.of(), "--drain-seconds", "-1"));
        assertEquals("--management-host must not be empty", refusal(Map.of(), "--management-host", " "));
    }

    @Test
    void unknownFlagIsRefusedNamingIt() {
        assertEquals("unknown option --verbose (see --help)", refusal(Map.of(), "--verbose"));
    }

    @Test
    void positionalArgumentIsRefused() {
        assertEquals("unexpected argument 8080 (see --help)", refusal(Map.of(), "8080"));
    }

    @Test
    void flagWithoutItsValueIsRefused() {
        assertEquals("--port needs a value (see --help)", refusal(Map.of(), "--port"));
    }

    @ParameterizedTest(name = "--port {0}")
    @ValueSource(strings = {"-1", "65536", "http", "80.5", ""})
    void portOutsideZeroTo65535IsRefused(String port) {
        assertEquals("--port must be an integer from 0 to 65535, got '" + port + "'",
                refusal(Map.of(), "--port", port));
    }

    @Test
    void badEnvironmentValueIsRefusedNamingTheVariable() {
        assertEquals("PLANTSTORE_MAX_BODY_BYTES must be an integer from 1 to 2147483646, got '0'",
                refusal(Map.of("PLANTSTORE_MAX_BODY_BYTES", "0")));
    }

    @Test
    void emptyHostIsRefused() {
        assertEquals("--host must not be empty", refusal(Map.of(), "--host", " "));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"--tokens", "--token"})
    void tokensAreNeverTakenFromAFlag(String flag) {
        String message = refusal(Map.of(), flag, "secret");
        assertTrue(message.contains("visible to every user through ps"), message);
        assertTrue(!message.contains("secret"), message);
    }

    @Test
    void storeIsMemorySqliteOrAPostgresqlUrl() throws UsageException {
        assertEquals(new StoreSpec.Memory(), parse(Map.of(), "--store", "memory").get(Options.STORE));
        assertEquals(new StoreSpec.Sqlite(Path.of("data/p.db")),
                parse(Map.of(), "--store=sqlite:data/p.db").get(Options.STORE));
        assertEquals(new StoreSpec.Postgres("jdbc:postgresql://db:5432/plants"),
                parse(Map.of("PLANTSTORE_STORE", "jdbc:postgresql://db:5432/plants")).get(Options.STORE));
    }

    @ParameterizedTest(name = "--store {0}")
    @ValueSource(strings = {"mem", "sqlite:", "postgres://db/plants", "jdbc:mysql://db/plants", ""})
    void anyOtherStoreIsRefusedQuotingIt(String store) {
        assertEquals("--store must be memory, sqlite:PATH or jdbc:postgresql://HOST/DATABASE, got '" + store + "'",
                refusal(Map.of(), "--store", store));
    }

    @Test
    void aRefusedStoreIsQuotedWithoutItsCredentials() {
        assertEquals("PLANTSTORE_STORE must be memory, sqlite:PATH or jdbc:postgresql://HOST/DATABASE, got "
                        + "'jdbc:mysql://db/plants'",
                refusal(Map.of("PLANTSTORE_STORE", "jdbc:mysql://app:hunter2@db/plants?password=hunter2")));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"jdbc:postgresql://db:5432/plants?user=app&password=hunter2",
            "jdbc:postgresql://app:hunter2@db:5432/plants"})
    void aPostgresqlUrlIsShownWithoutCredentials(String url) throws UsageException {
        var store = (StoreSpec.Postgres) parse(Map.of(), "--store", url).get(Options.STORE);
        assertEquals("jdbc:postgresql://db:5432/plants", store.redacted());
        assertTrue(!store.toString().contains("hunter2"), store.toString());
    }

    @ParameterizedTest(name = "--docs {0}")
    @ValueSource(strings = {"maybe", "1", ""})
    void docsIsOnOrOff(String value) {
        assertEquals("--docs must be on or off, got '" + value + "'", refusal(Map.of(), "--docs", value));
    }

    /** Every option's value, read through the one accessor the server uses. */
    static Map<Option<?>, Object> everyValue(Options options) {
        Map<Option<?>, Object> values = new HashMap<>();
        Options.TABLE.forEach(option -> values.put(option, options.get(option)));
        return values;
    }

    @Test
    void theTlsFilesComeFromFlagsOrTheirVariables() throws UsageException {
        Options options = parse(Map.of("PLANTSTORE_TLS_KEY_FILE", "/tls/tls.key",
                "PLANTSTORE_TLS_CLIENT_CA_FILE", "/tls/ca.crt"), "--tls-cert-file", "/tls/tls.crt");
        assertEquals(Optional.of(new TlsFiles(Path.of("/tls/tls.crt"), Path.of("/tls/tls.key"), Optional.empty(),
                Optional.of(Path.of("/tls/ca.crt")))), options.tlsFiles());
        assertEquals(Optional.empty(), parse(Map.of()).tlsFiles());
    }

    @Test
    void aCertificateWithoutItsKeyOrAPasswordWithoutAPairIsRefused() {
        assertEquals("--tls-cert-file and --tls-key-file go together: a certificate is served with its private key",
                refusal(Map.of(), "--tls-cert-file", "tls.crt"));
        assertEquals("--tls-cert-file and --tls-key-file go together: a certificate is served with its private key",
                refusal(Map.of("PLANTSTORE_TLS_KEY_FILE", "tls.key")));
        assertEquals("--tls-key-password-file needs --tls-cert-file and --tls-key-file",
                refusal(Map.of(), "--tls-key-password-file", "pass"));
        assertEquals("--tls-client-ca-file needs --tls-cert-file and --tls-key-file",
                refusal(Map.of(), "--tls-client-ca-file", "ca.crt"));
    }
}
