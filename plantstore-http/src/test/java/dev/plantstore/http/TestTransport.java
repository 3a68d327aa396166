package dev.plantstore.http;

import dev.plantstore.testkit.LocalhostKeys;
import io.javalin.config.JavalinConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.eclipse.jetty.util.ssl.SslContextFactory;

/**
 * How the in-process HTTP tests reach the server: plain HTTP/1.1, or, when the system property
 * {@code plantstore.test.protocol} is {@code h2} (the build's second test run), HTTP/2 over TLS through
 * {@link TlsConnector}, with a client that trusts a key pair made for the run and fails any exchange that falls back
 * to HTTP/1.1. The same rules then hold, test by test, on both protocols.
 */
final class TestTransport {

    static final boolean HTTP2 = "h2".equals(System.getProperty("plantstore.test.protocol"));

    /**
     * The tag of a test that writes HTTP/1.1 on a plain socket ({@link RawHttp}), so that it cannot run over HTTP/2:
     * the HTTP/2 run leaves it out. Their HTTP/2 counterparts, frame by frame, are {@link Http2HostileClientTest} and
     * {@link Http2EarlyAnswerTest}, and TlsIT's against the jar (a body over the limit refused before it is sent).
     */
    static final String HTTP1_SOCKET = "http1-socket";

    private TestTransport() {
    }

    /** The client every exchange goes through. */
    static HttpClient client() {
        if (!HTTP2) {
            return new ContractCheckingHttpClient();
        }
        return new ContractCheckingHttpClient(http2Client(), true);
    }

    /** The JDK's client, set to HTTP/2 and trusting the servers {@link #listenOverTls} starts. */
    static HttpClient http2Client() {
        return tlsClient(HttpClient.Version.HTTP_2);
    }

    /** The JDK's client, set to {@code version} and trusting the servers {@link #serverKeys} serve. */
    static HttpClient tlsClient(HttpClient.Version version) {
        return HttpClient.newBuilder()
                .version(version)
                .sslContext(Keys.CLIENT_TRUST)
                .build();
    }

    /** The TLS context that trusts the servers {@link #serverKeys} serve. */
    static SSLContext clientTrust() {
        return Keys.CLIENT_TRUST;
    }

    /** Sets how a server listens: Javalin's plain HTTP as it is, or TLS with HTTP/2 on a free port. */
    static void listen(JavalinConfig config) {
        if (HTTP2) {
            listenOverTls(config);
        }
    }

    /** TLS with HTTP/2 beside HTTP/1.1 on a free port, whatever the run. */
    static void listenOverTls(JavalinConfig config) {
        TlsConnector.serve(config, serverKeys(), "localhost", 0);
    }

    /** What a Jetty client needs to trust the servers {@link #listenOverTls} starts. */
    static SslContextFactory.Client jettyClientTrust() {
        var trust = new SslContextFactory.Client();
        trust.setTrustStore(Keys.LOCALHOST.keyStore());
        return trust;
    }

    /** Points a testtools client at the server on {@code port} with the scheme {@link #listen} chose. */
    static void aim(io.javalin.testtools.HttpClient client, int port) {
        if (HTTP2) {
            client.setOrigin("https://localhost:" + port);
        }
    }

    /** The server's key pair; a new factory per server, since Jetty starts and stops it with the server. */
    static SslContextFactory.Server serverKeys() {
        var keys = new SslContextFactory.Server();
        keys.setKeyStore(Keys.LOCALHOST.keyStore());
        keys.setKeyStorePassword(new String(Keys.LOCALHOST.password()));
        return keys;
    }

    /** One key pair for the whole run, made when the first server over HTTP/2 needs it. */
    private static final class Keys {

        static final LocalhostKeys LOCALHOST = make();

        static final SSLContext CLIENT_TRUST = trusting(LOCALHOST.keyStore());

        private static LocalhostKeys make() {
            try {
                return LocalhostKeys.make();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }

        private static SSLContext trusting(KeyStore keyStore) {
            try {
                var trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
                trust.init(keyStore);
                SSLContext context = SSLContext.getInstance("TLS");
                context.init(null, trust.getTrustManagers(), null);
                return context;
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException(e);
            }
        }
    }
}
