package dev.plantstore.http;

import io.javalin.config.JavalinConfig;
import java.util.Objects;
import org.eclipse.jetty.util.ssl.SslContextFactory;

/**
 * A Javalin application's one connector as TLS only (1.3 and 1.2, ECDHE with AEAD suites, no renegotiation), HTTP/2
 * and HTTP/1.1 by ALPN, all Jetty's: its TLS factory on {@code tls}, which a caller may
 * {@link SslContextFactory#reload reload} at any time for new connections, and its HTTP/2 server with fewer streams
 * per connection and a stream idle time-out. The application's HTTP configuration holds on both protocols. A refused
 * client certificate is a WARN line, at most one a minute per reason, and counted with metrics. Needs the optional
 * {@code jetty-alpn-java-server} and {@code jetty-http2-server}, which {@link #serve} names when missing.
 *
 * <pre>{@code
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
