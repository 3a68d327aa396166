package dev.plantstore.http;

import io.javalin.config.JavalinConfig;
import java.util.Objects;
import org.eclipse.jetty.util.ssl.SslContextFactory;

/**
 * A Javalin application's one connector as TLS only, with HTTP/2 and HTTP/1.1 offered by ALPN (a client that names
 * neither gets HTTP/1.1). Everything here is Jetty's: its TLS connection factory on the key pair and trust that
 * {@code tls} holds, which a caller may {@link SslContextFactory#reload reload} at any time (connections already open
 * keep the pair they started with), its ALPN on the JDK's, and its HTTP/2 server, with fewer streams per connection
 * and a stream idle time-out against clients that never open their flow-control window. The HTTP configuration is the
 * application's own (every rule set through {@code config.jetty.modifyHttpConfiguration} holds on both protocols)
 * plus Jetty's {@code SecureRequestCustomizer}, so that requests know they came over TLS.
 *
 * <p>It needs {@code org.eclipse.jetty:jetty-alpn-java-server} and {@code org.eclipse.jetty.http2:jetty-http2-server},
 * which plantstore-http declares optional: {@link #serve} names them when they are missing.
 *
 * <p>The protocols are TLS 1.3 and 1.2 only, renegotiation is refused, and the cipher suites are TLS 1.3's and TLS
 * 1.2's with ECDHE and an AEAD cipher (RFC 9325), ordered as HTTP/2 requires (RFC 9113 section 9.2.2). A plain-HTTP
 * request to the port fails the handshake: it is never answered in the clear. When {@code tls} requires a client
 * certificate, a handshake refused for it (none, expired, untrusted) is a WARN line naming the peer and the reason, at
 * most one a minute per reason, and counted in {@code plantstore.tls.client.certificates.refused} when the API has
 * metrics.
 *
 * <pre>{@code
 * var tls = new SslContextFactory.Server();
 * tls.setKeyStore(keyStore);
 * tls.setKeyStorePassword(password);
 * Javalin.create(config -> TlsConnector.serve(config, tls, "0.0.0.0", 8443)).start();
 * }</pre>
 */
public final class TlsConnector {

    private TlsConnector() {
    }

    /**
     * Makes the application listen on {@code host} and {@code port} (0 for any free port) with TLS from {@code tls},
     * instead of Javalin's plain-HTTP connector; the port given to {@code Javalin.start} is then not used. Sets the
     * protocol, renegotiation and cipher-order settings above on {@code tls}.
     *
     * @throws IllegalStateException when jetty-alpn-java-server or jetty-http2-server is not on the class path
     */
    public static void serve(JavalinConfig config, SslContextFactory.Server tls, String host, int port) {
        Objects.requireNonNull(config, "null config");
        Objects.requireNonNull(tls, "null tls");
        Objects.requireNonNull(host, "null host");
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("port must be between 0 and 65535");
        }
        OptionalLibrary.require(OptionalLibrary.CLASS_PATH, "Serving TLS with HTTP/2 (TlsConnector)",
                "serve plain HTTP", OptionalLibrary.JETTY_ALPN, OptionalLibrary.JETTY_HTTP2);
        // The connector's classes come from those libraries: they are loaded only once they are known to be there.
        AlpnConnector.harden(tls);
        config.jetty.addConnector((server, http) -> AlpnConnector.create(server, http, tls, host, port));
    }
}
