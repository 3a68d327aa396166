package dev.plantstore.http;

import io.javalin.config.JavalinConfig;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.concurrent.TimeUnit;
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
     * the HTTP/2 run leaves it out. TlsIT holds the HTTP/2 counterparts of those that matter there (a body over the
     * limit refused before it is sent).
     */
    static final String HTTP1_SOCKET = "http1-socket";

    private static final char[] PASSWORD = "test-only".toCharArray();

    private TestTransport() {
    }

    /** The client every exchange goes through. */
    static HttpClient client() {
        if (!HTTP2) {
            return new ContractCheckingHttpClient();
        }
        return new ContractCheckingHttpClient(HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_2)
                .sslContext(KeyPair.INSTANCE.clientTrust)
                .build(), true);
    }

    /** Sets how a server listens: Javalin's plain HTTP as it is, or TLS with HTTP/2 on a free port. */
    static void listen(JavalinConfig config) {
        if (HTTP2) {
            TlsConnector.serve(config, serverKeys(), "localhost", 0);
        }
    }

    /** Points a testtools client at the server on {@code port} with the scheme {@link #listen} chose. */
    static void aim(io.javalin.testtools.HttpClient client, int port) {
        if (HTTP2) {
            client.setOrigin("https://localhost:" + port);
        }
    }

    /** The server's key pair; a new factory per server, since Jetty starts and stops it with the server. */
    private static SslContextFactory.Server serverKeys() {
        var keys = new SslContextFactory.Server();
        keys.setKeyStore(KeyPair.INSTANCE.keyStore);
        keys.setKeyStorePassword(new String(PASSWORD));
        return keys;
    }

    /** A self-signed certificate for localhost, made once per test run by the JDK's keytool: no key is committed. */
    private static final class KeyPair {

        static final KeyPair INSTANCE = new KeyPair();

        final KeyStore keyStore;
        final SSLContext clientTrust;

        private KeyPair() {
            try {
                Path directory = Files.createTempDirectory("plantstore-test-tls");
                Path file = directory.resolve("localhost.p12");
                Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool")
                        .toString(), "-genkeypair", "-alias", "localhost", "-keyalg", "EC", "-groupname", "secp256r1",
                        "-validity", "2", "-dname", "CN=localhost", "-ext", "san=dns:localhost,ip:127.0.0.1",
                        "-storetype", "PKCS12", "-keystore", file.toString(), "-storepass", new String(PASSWORD))
                        .redirectErrorStream(true)
                        .start();
                String output = new String(keytool.getInputStream().readAllBytes());
                if (!keytool.waitFor(60, TimeUnit.SECONDS) || keytool.exitValue() != 0) {
                    throw new IllegalStateException("keytool failed: " + output);
                }
                keyStore = KeyStore.getInstance("PKCS12");
                try (InputStream in = Files.newInputStream(file)) {
                    keyStore.load(in, PASSWORD);
                }
                Files.delete(file);
                Files.delete(directory);
                var trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
                trust.init(keyStore);
                clientTrust = SSLContext.getInstance("TLS");
                clientTrust.init(null, trust.getTrustManagers(), null);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }
}
