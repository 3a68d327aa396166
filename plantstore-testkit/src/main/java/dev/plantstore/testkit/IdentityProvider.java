package dev.plantstore.testkit;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import no.nav.security.mock.oauth2.MockOAuth2Server;
import no.nav.security.mock.oauth2.OAuth2Config;
import no.nav.security.mock.oauth2.http.OAuth2HttpRequest;
import no.nav.security.mock.oauth2.http.OAuth2HttpResponse;
import no.nav.security.mock.oauth2.http.Route;
import no.nav.security.mock.oauth2.token.DefaultOAuth2TokenCallback;
import no.nav.security.mock.oauth2.token.KeyProvider;
import no.nav.security.mock.oauth2.token.OAuth2TokenProvider;
import okhttp3.Headers;
import okhttp3.mockwebserver.RecordedRequest;

/**
 * A real OAuth 2.0 authorization server on 127.0.0.1 (no.nav.security's mock-oauth2-server): it publishes OpenID
 * Connect discovery and a key set over HTTP, and issues RS256-signed access tokens, directly or through its token
 * endpoint. Its one issuer signs with a key the test can see, so a test can also sign tokens the server would never
 * issue (no {@code kid}, another {@code typ}), and can rotate that key.
 */
public final class IdentityProvider implements AutoCloseable {

    /** The audience tokens are issued for unless a test asks for another. */
    public static final String AUDIENCE = "plantstore";

    private static final String ISSUER_ID = "plants";

    private final MockOAuth2Server server;
    private final AtomicReference<RSAKey> signingKey;
    private final int port;
    private volatile boolean started;
    /** The keys its key set holds; the server alone would publish only the key it signs with. */
    private final AtomicReference<List<RSAKey>> published;

    private IdentityProvider(RSAKey firstKey, int port) {
        this.signingKey = new AtomicReference<>(firstKey);
        this.published = new AtomicReference<>(List.of(firstKey));
        var keys = new KeyProvider(List.of(firstKey)) {
            @Override
            public JWK signingKey(String issuerId) {
                return signingKey.get();
            }
        };
        this.server = new MockOAuth2Server(new OAuth2Config(false, null, null, false,
                new OAuth2TokenProvider(keys)), new PublishedKeys());
        this.port = port;
    }

    /** A provider on a free port. */
    public static IdentityProvider start() {
        return start(0);
    }

    /** A provider on {@code port} (0: a free one), so that a test can start it where a verifier already looks. */
    public static IdentityProvider start(int port) {
        var provider = new IdentityProvider(newKey(), port);
        provider.startServer();
        return provider;
    }

    /** A provider that is not started: a verifier can be pointed at {@link #issuer()} before {@link #startServer()}. */
    public static IdentityProvider notStartedOn(int port) {
        return new IdentityProvider(newKey(), port);
    }

    public void startServer() {
        server.start(InetAddress.getLoopbackAddress(), port);
        started = true;
        warmUp();
    }

    /**
     * Asks for its metadata and keys once, then forgets it was asked: the server's first answers load classes for
     * seconds on a busy machine, and a test's time-outs are meant for the verifier, not for that.
     */
    private void warmUp() {
        HttpClient client = HttpClient.newHttpClient();
        for (String path : List.of("/.well-known/openid-configuration", "/jwks")) {
            try {
                client.send(HttpRequest.newBuilder(URI.create(issuer() + path)).build(),
                        HttpResponse.BodyHandlers.discarding());
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while the provider started", e);
            }
        }
        takeRequestPaths();
    }

    /** The issuer, exactly as it writes {@code iss}. */
    public URI issuer() {
        return started
                ? URI.create(server.issuerUrl(ISSUER_ID).toString())
                : URI.create("http://127.0.0.1:" + port + "/" + ISSUER_ID);
    }

    /** The token endpoint, for the client-credentials grant. */
    public URI tokenEndpoint() {
        return URI.create(server.tokenEndpointUrl(ISSUER_ID).toString());
    }

    /** An access token for {@code subject}, for {@link #AUDIENCE}, with these space-separated scopes, for an hour. */
    public String token(String subject, String scope) {
        return token(subject, List.of(AUDIENCE), Map.of("scope", scope), Duration.ofHours(1));
    }

    /** An access token issued by the provider with these audiences, extra claims and lifetime. */
    public String token(String subject, List<String> audiences, Map<String, Object> claims, Duration lifetime) {
        return server.issueToken(ISSUER_ID, subject, new DefaultOAuth2TokenCallback(ISSUER_ID, subject,
                JOSEObjectType.JWT.getType(), audiences, claims, lifetime.toSeconds())).serialize();
    }

    /**
     * A token from the token endpoint by the client-credentials grant, as a service would get one: the next token the
     * endpoint issues is for {@code clientId}, for {@link #AUDIENCE}, with {@code scope}.
     */
    public String clientCredentialsToken(String clientId, String scope) throws IOException, InterruptedException {
        server.enqueueCallback(new DefaultOAuth2TokenCallback(ISSUER_ID, clientId, JOSEObjectType.JWT.getType(),
                List.of(AUDIENCE), Map.of("scope", scope), 3600));
        String form = "grant_type=client_credentials&scope=" + URLEncoder.encode(scope, StandardCharsets.UTF_8);
        String basic = Base64.getEncoder().encodeToString((clientId + ":secret").getBytes(StandardCharsets.UTF_8));
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(tokenEndpoint())
                .header("Content-Type", "application/x-www-form-urlencoded")
                .header("Authorization", "Basic " + basic)
                .POST(HttpRequest.BodyPublishers.ofString(form))
                .build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException("the token endpoint answered " + response.statusCode() + ": " + response.body());
        }
        var matcher = java.util.regex.Pattern.compile("\"access_token\"\\s*:\\s*\"([^\"]+)\"").matcher(
                response.body());
        if (!matcher.find()) {
            throw new IOException("no access_token in " + response.body());
        }
        return matcher.group(1);
    }

    /** The key the provider signs with now, private part included. */
    public RSAKey signingKey() {
        return signingKey.get();
    }

    /**
     * Signs {@code claims} with the provider's key under {@code header}: what the provider would issue if it wrote
     * that header.
     */
    public String sign(JWSHeader header, JWTClaimsSet claims) {
        try {
            var jwt = new SignedJWT(header, claims);
            jwt.sign(new RSASSASigner(signingKey.get()));
            return jwt.serialize();
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * A token for {@code subject} with {@code scope}, signed with the provider's key without asking the provider: for
     * a provider that is not running yet.
     */
    public String signedToken(String subject, String scope) {
        return sign(header().build(), claims(subject).claim("scope", scope).build());
    }

    /** The claims of a token this provider would issue now for {@code subject}, valid for an hour. */
    public JWTClaimsSet.Builder claims(String subject) {
        long now = System.currentTimeMillis();
        return new JWTClaimsSet.Builder()
                .issuer(issuer().toString())
                .subject(subject)
                .audience(AUDIENCE)
                .issueTime(new java.util.Date(now))
                .notBeforeTime(new java.util.Date(now))
                .expirationTime(new java.util.Date(now + 3_600_000))
                .jwtID(UUID.randomUUID().toString());
    }

    /** The header the provider writes with its current key. */
    public JWSHeader.Builder header() {
        return new JWSHeader.Builder(JWSAlgorithm.RS256).type(JOSEObjectType.JWT).keyID(signingKey.get().getKeyID());
    }

    /**
     * The provider signs with a new key from now on and publishes it. With {@code keepPublishingPrevious}, it also
     * goes on publishing the previous key, as a provider does while tokens signed with it are still in use.
     */
    public void rotateKey(boolean keepPublishingPrevious) {
        RSAKey next = newKey();
        RSAKey previous = signingKey.getAndSet(next);
        published.updateAndGet(keys -> {
            List<RSAKey> now = new ArrayList<>(keys);
            if (!keepPublishingPrevious) {
                now.remove(previous);
            }
            now.add(next);
            return List.copyOf(now);
        });
    }

    /** The requests the provider received since the last call, by path. */
    public List<String> takeRequestPaths() {
        List<String> paths = new ArrayList<>();
        while (true) {
            RecordedRequest request;
            try {
                request = server.takeRequest(1, TimeUnit.MILLISECONDS);
            } catch (RuntimeException noneLeft) {
                // The server throws rather than answering null when no request is waiting.
                return paths;
            }
            paths.add(request.getPath());
        }
    }

    /** How many times the key set was fetched since the last call of this or {@link #takeRequestPaths()}. */
    public long keySetFetches() {
        return takeRequestPaths().stream().filter(path -> path.endsWith("/jwks")).count();
    }

    /** Stops the provider: from now on its address refuses connections. */
    @Override
    public void close() {
        if (started) {
            started = false;
            server.shutdown();
        }
    }

    /** The key set at the address the provider's discovery names, served before the provider's own route. */
    private final class PublishedKeys implements Route {
        @Override
        public boolean match(OAuth2HttpRequest request) {
            return "GET".equals(request.getMethod())
                    && request.getUrl().encodedPath().equals("/" + ISSUER_ID + "/jwks");
        }

        @Override
        public OAuth2HttpResponse invoke(OAuth2HttpRequest request) {
            String keySet = new JWKSet(List.copyOf(published.get())).toPublicJWKSet().toString();
            return new OAuth2HttpResponse(Headers.of("Content-Type", "application/json"), 200, keySet, null);
        }
    }

    private static RSAKey newKey() {
        try {
            return new RSAKeyGenerator(2048).keyID(UUID.randomUUID().toString()).generate();
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }
}
