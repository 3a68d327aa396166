package dev.plantstore.http;

import java.time.Clock;
import org.eclipse.jetty.alpn.server.ALPNServerConnectionFactory;
import org.eclipse.jetty.http2.HTTP2Cipher;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.ssl.SslContextFactory;

/**
 * {@link TlsConnector}'s use of the optional libraries, in a class of its own so that nothing loads them before
 * {@link TlsConnector#serve} has checked that they are there.
 */
final class AlpnConnector {

    /** The protocols offered by ALPN, preferred first. */
    private static final String[] APPLICATION_PROTOCOLS = {"h2", "http/1.1"};

    private AlpnConnector() {
    }

    static Connector create(Server server, HttpConfiguration http, SslContextFactory.Server tls, String host,
                            int port) {
        var secure = new HttpConfiguration(http);
        // Without Jetty's check that Host is a name the certificate holds: a probe or a scrape by address sends the
        // address, which a certificate for a DNS name lacks, and Jetty answered it 400. Plain HTTP takes any Host.
        secure.addCustomizer(new SecureRequestCustomizer(false));
        var alpn = new ALPNServerConnectionFactory(APPLICATION_PROTOCOLS);
        alpn.setDefaultProtocol("http/1.1");
        var connector = new ServerConnector(server, new SslConnectionFactory(tls, alpn.getProtocol()), alpn,
                new Http2Connections(secure), new HttpConnectionFactory(secure));
        connector.addBean(new ClientCertificateRefusals(Clock.systemUTC()));
        connector.setHost(host);
        connector.setPort(port);
        return connector;
    }

    /**
     * TLS 1.3's suites, and TLS 1.2's with an ephemeral elliptic-curve key exchange and an AEAD cipher, as RFC 9325
     * recommends: no CBC suite (the JDK enables them, and Jetty's exclusions keep some), and no finite-field DHE, which
     * the JDK offers at 2048 bits with an RSA certificate.
     */
    private static final String[] CIPHER_SUITES = {"TLS_AES_(128|256)_GCM_SHA(256|384)", "TLS_CHACHA20_POLY1305_SHA256",
        "TLS_ECDHE_(ECDSA|RSA)_WITH_(AES_(128|256)_GCM_SHA(256|384)|CHACHA20_POLY1305_SHA256)"};

    static void harden(SslContextFactory.Server tls) {
        tls.setIncludeProtocols("TLSv1.3", "TLSv1.2");
        tls.setIncludeCipherSuites(CIPHER_SUITES);
        tls.setRenegotiationAllowed(false);
        tls.setCipherComparator(HTTP2Cipher.COMPARATOR);
        tls.setUseCipherSuitesOrder(true);
    }
}
