package dev.plantstore.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertificateException;
import java.security.cert.CertificateExpiredException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import org.eclipse.jetty.io.ssl.SslHandshakeListener;
import org.junit.jupiter.api.Test;

/**
 * The refused client certificates' lines and counts, with the failures the JDK's server engine gives: one line per
 * reason a minute, the next one saying how many were not written, and every refusal counted.
 */
class ClientCertificateRefusalsTest {

    private static final SSLHandshakeException NONE = new SSLHandshakeException("Empty client certificate chain");
    private static final SSLHandshakeException EXPIRED = handshake(new CertPathValidatorException("validity check "
            + "failed", new CertificateExpiredException("NotAfter: Tue Dec 01 00:00:00 UTC 2026"), null, -1,
            CertPathValidatorException.BasicReason.EXPIRED));
    private static final SSLHandshakeException UNTRUSTED = handshake(new CertificateException("PKIX path building "
            + "failed: unable to find valid certification path to requested target"));

    private final MovingClock clock = new MovingClock();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final ClientCertificateRefusals refusals = new ClientCertificateRefusals(clock);

    @Test
    void eachReasonIsOneLineAMinuteAndTheNextSaysHowManyWereNotWritten() throws Exception {
        refusals.countIn(registry);
        String log = LogCapture.during(() -> {
            for (int i = 0; i < 5; i++) {
                refusals.handshakeFailed(event("192.0.2.7"), NONE);
            }
            refusals.handshakeFailed(event("2001:db8::1"), UNTRUSTED);
            refusals.handshakeFailed(event("198.51.100.3"), EXPIRED);
            clock.advance(ClientCertificateRefusals.LINE_EVERY);
            refusals.handshakeFailed(event("192.0.2.8"), NONE);
        });
        List<String> lines = log.lines().filter(line -> line.contains("TLS handshake from")).toList();
        assertEquals(4, lines.size(), log);
        assertLine(lines.get(0), "WARN", "TLS handshake from 192.0.2.7 refused: it presented no client certificate");
        assertLine(lines.get(1), "WARN", "TLS handshake from 2001:db8::1 refused: its client certificate is not signed "
                + "by a trusted CA or not valid");
        assertLine(lines.get(2), "WARN", "TLS handshake from 198.51.100.3 refused: its client certificate has expired");
        assertLine(lines.get(3), "WARN", "TLS handshake from 192.0.2.8 refused: it presented no client certificate "
                + "(and 4 more refused so since the last such line)");
        assertEquals(6.0, count("no_certificate"));
        assertEquals(1.0, count("untrusted"));
        assertEquals(1.0, count("expired"));
    }

    /** A plain-HTTP request or a client that shares no cipher suite fails its handshake too: not for a certificate. */
    @Test
    void otherFailedHandshakesAreNeitherWrittenNorCounted() throws Exception {
        refusals.countIn(registry);
        String log = LogCapture.during(() -> {
            refusals.handshakeFailed(event("192.0.2.7"), new SSLHandshakeException("no cipher suites in common"));
            refusals.handshakeFailed(event("192.0.2.7"), new SSLHandshakeException("Unsupported or unrecognized "
                    + "SSL message"));
        });
        assertTrue(log.lines().noneMatch(line -> line.contains("TLS handshake from")), log);
        assertEquals(0.0, count("no_certificate") + count("untrusted") + count("expired"));
    }

    private double count(String reason) {
        return registry.get(ClientCertificateRefusals.METRIC).tag("reason", reason).counter().count();
    }

    private static void assertLine(String line, String level, String message) {
        assertTrue(line.contains(" " + level + " ") && line.endsWith(message), line);
    }

    private static SSLHandshakeException handshake(Exception cause) {
        var failure = new SSLHandshakeException(cause.getMessage());
        failure.initCause(cause);
        return failure;
    }

    /** Jetty alone creates events with their end point; this listener reads only the engine. */
    @SuppressWarnings("removal")
    private static SslHandshakeListener.Event event(String peer) {
        try {
            return new SslHandshakeListener.Event(SSLContext.getDefault().createSSLEngine(peer, 443));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static final class MovingClock extends Clock {
        private Instant now = Instant.parse("2026-12-02T04:00:00Z");

        void advance(Duration by) {
            now = now.plus(by);
        }

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }
    }
}
