package dev.plantstore.http;

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
        connector.setHost(host);
        connector.setPort(port);
        return connector;
    }

    static void harden(SslContextFactory.Server tls) {
        tls.setIncludeProtocols("TLSv1.3", "TLSv1.2");
        tls.setRenegotiationAllowed(false);
        tls.setCipherComparator(HTTP2Cipher.COMPARATOR);
        tls.setUseCipherSuitesOrder(true);
    }
}
