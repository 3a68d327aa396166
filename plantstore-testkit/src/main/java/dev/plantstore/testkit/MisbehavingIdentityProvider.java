package dev.plantstore.testkit;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Date;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * An identity provider that misbehaves as a test tells it to, on 127.0.0.1 over the JDK's HTTP server. By default it
 * is a plain issuer: OpenID Connect metadata naming its key set, and RS256 access tokens signed with a key it
 * publishes. A test can make its key set answer slowly or without end, change its keys, and make its metadata name the
 * key set at another address.
 */
public final class MisbehavingIdentityProvider implements AutoCloseable {

    /** How the key set is answered. */
    public enum KeySetAnswer {
        /** The keys, at once. */
        PROMPT,
        /** The status and headers at once, then the keys one byte every 2 s. */
        DRIPPING,
        /**
         * The start of a key set, then 400 MiB of spaces at full speed, its length not announced: chunked, 512 bytes a
         * chunk.
         */
        ENDLESS,
        /** As {@link #ENDLESS}, its length announced in {@code Content-Length}. */
        OVERSIZED
    }

    private static final String REALM = "/realms/plants";
    private static final String KEY_SET_PATH = REALM + "/keys";
    private static final long OVERSIZED_BYTES = 400L << 20;
    /**
     * Each write is flushed, which the JDK's server sends as a chunk of its own. Small chunks show for sure a client
     * that does work for each chunk in proportion to all it holds: the JDK's HttpURLConnection copies what it buffered
     * once per chunk.
     */
    private static final int OVERSIZED_WRITE_BYTES = 512;

    private final HttpServer server;
    private final ExecutorService threads = Executors.newCachedThreadPool(task -> {
        Thread thread = new Thread(task, "misbehaving-identity-provider");
        thread.setDaemon(true);
        return thread;
    });
    private final AtomicReference<RSAKey> signingKey = new AtomicReference<>(newKey());
    private final AtomicReference<List<RSAKey>> published = new AtomicReference<>(List.of(signingKey.get()));
    private final AtomicReference<KeySetAnswer> keySetAnswer = new AtomicReference<>(KeySetAnswer.PROMPT);
    private final AtomicReference<String> namedKeySet = new AtomicReference<>();
    private final AtomicInteger keySetRequests = new AtomicInteger();
    private final AtomicLong keySetBytesSent = new AtomicLong();
    private final AtomicInteger keySetAnswersCutShort = new AtomicInteger();

    private MisbehavingIdentityProvider() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(threads);
        server.createContext(REALM + "/.well-known/openid-configuration", this::metadata);
        server.createContext(KEY_SET_PATH, this::keySet);
        namedKeySet.set(ownKeySet());
    }

    /** A provider on a free port, behaving. */
    public static MisbehavingIdentityProvider start() {
        try {
            var provider = new MisbehavingIdentityProvider();
            provider.server.start();
            return provider;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The issuer, exactly as its tokens write {@code iss}. */
    public URI issuer() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + REALM);
    }

    /** From now on the key set is answered so. */
    public void answerKeySet(KeySetAnswer answer) {
        keySetAnswer.set(answer);
    }

    /** From now on the metadata names {@code jwksUri} as the key set's address. */
    public void nameKeySetAt(String jwksUri) {
        namedKeySet.set(jwksUri);
    }

    /** From now on the metadata names the provider's own key set again. */
    public void nameOwnKeySet() {
        namedKeySet.set(ownKeySet());
    }

    /** An access token for {@code subject} with these space-separated scopes, for an hour, signed with the key now. */
    public String token(String subject, String scope) {
        return tokenWithKeyId(signingKey.get().getKeyID(), subject, scope);
    }

    /** As {@link #token}, but naming {@code keyId} in its header, whatever key that is. */
    public String tokenWithKeyId(String keyId, String subject, String scope) {
        long now = System.currentTimeMillis();
        var claims = new JWTClaimsSet.Builder()
                .issuer(issuer().toString())
                .subject(subject)
                .audience(IdentityProvider.AUDIENCE)
                .issueTime(new Date(now))
                .expirationTime(new Date(now + 3_600_000))
                .claim("scope", scope)
                .build();
        try {
            var jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).type(JOSEObjectType.JWT).keyID(keyId)
                    .build(), claims);
            jwt.sign(new RSASSASigner(signingKey.get()));
            return jwt.serialize();
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The provider signs with a new key from now on and publishes it; with {@code keepPublishingPrevious} it goes on
     * publishing the previous one too.
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

    /** How many times the key set was asked for. */
    public int keySetRequests() {
        return keySetRequests.get();
    }

    /** How many bytes of key-set bodies were handed to the connection, all answers together. */
    public long keySetBytesSent() {
        return keySetBytesSent.get();
    }

    /**
     * How many oversized key sets the client hung up on before their end. How many bytes it took first says little:
     * the kernel may buffer tens of MiB on a loopback connection that nobody reads.
     */
    public int keySetAnswersCutShort() {
        return keySetAnswersCutShort.get();
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }

    private String ownKeySet() {
        return issuer() + "/keys";
    }

    private void metadata(HttpExchange exchange) throws IOException {
        String document = "{\"issuer\":\"" + issuer() + "\",\"jwks_uri\":\"" + namedKeySet.get() + "\"}";
        respond(exchange, document.getBytes(StandardCharsets.UTF_8));
    }

    private void keySet(HttpExchange exchange) throws IOException {
        keySetRequests.incrementAndGet();
        byte[] keys = new JWKSet(List.copyOf(published.get())).toPublicJWKSet().toString()
                .getBytes(StandardCharsets.UTF_8);
        try (exchange) {
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            switch (keySetAnswer.get()) {
                case PROMPT -> {
                    exchange.sendResponseHeaders(200, keys.length);
                    send(exchange.getResponseBody(), keys);
                }
                case DRIPPING -> drip(exchange, keys);
                case ENDLESS -> sendOversized(exchange, 0);
                case OVERSIZED -> sendOversized(exchange, OVERSIZED_BYTES);
            }
        }
    }

    private void drip(HttpExchange exchange, byte[] keys) throws IOException {
        exchange.sendResponseHeaders(200, 0);
        OutputStream body = exchange.getResponseBody();
        body.flush();
        for (byte b : keys) {
            try {
                Thread.sleep(2_000);
            } catch (InterruptedException stopped) {
                Thread.currentThread().interrupt();
                return;
            }
            send(body, new byte[] {b});
        }
    }

    /** {@code declaredLength}: 0 for none. The client may hang up at any point; the write then fails. */
    private void sendOversized(HttpExchange exchange, long declaredLength) throws IOException {
        byte[] start = "{\"keys\":[".getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(200, declaredLength);
        OutputStream body = exchange.getResponseBody();
        send(body, start);
        byte[] spaces = new byte[OVERSIZED_WRITE_BYTES];
        Arrays.fill(spaces, (byte) ' ');
        long left = OVERSIZED_BYTES - start.length;
        try {
            while (left > 0) {
                int now = (int) Math.min(spaces.length, left);
                send(body, spaces, now);
                left -= now;
            }
        } catch (IOException hungUp) {
            keySetAnswersCutShort.incrementAndGet();
            throw hungUp;
        }
    }

    private void send(OutputStream body, byte[] bytes) throws IOException {
        send(body, bytes, bytes.length);
    }

    /** Nothing is copied: what a test measures of the verifier's memory is then not this provider's. */
    private void send(OutputStream body, byte[] bytes, int length) throws IOException {
        body.write(bytes, 0, length);
        body.flush();
        keySetBytesSent.addAndGet(length);
    }

    private static void respond(HttpExchange exchange, byte[] body) throws IOException {
        try (exchange) {
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
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
