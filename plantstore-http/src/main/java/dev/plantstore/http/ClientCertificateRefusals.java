package dev.plantstore.http;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertificateException;
import java.security.cert.CertificateExpiredException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.eclipse.jetty.io.ssl.SslHandshakeListener;

/**
 * The TLS handshakes refused because of the client's certificate (none, expired, or not signed by a trusted CA), on a
 * port that requires one: each is counted in {@value #METRIC} by reason once a registry is {@linkplain #countIn
 * bound}, and written as a WARN line naming the peer's address and the reason. At most one line per reason per
 * {@link #LINE_EVERY}, whatever the peers, so that a hostile client cannot flood the log; a line says how many
 * refusals of its reason went unwritten since the one before. Other failed handshakes (plain HTTP, no common cipher)
 * are neither counted nor written here.
 */
final class ClientCertificateRefusals implements SslHandshakeListener {

    static final String METRIC = "plantstore.tls.client.certificates.refused";
    static final Duration LINE_EVERY = Duration.ofMinutes(1);

    /** Why a client certificate was refused, as the metric's label and the log line say it. */
    enum Reason {
        NO_CERTIFICATE("no_certificate", "it presented no client certificate"),
        EXPIRED("expired", "its client certificate has expired"),
        UNTRUSTED("untrusted", "its client certificate is not signed by a trusted CA or not valid");

        private final String label;
        private final String words;

        Reason(String label, String words) {
            this.label = label;
            this.words = words;
        }

        String label() {
            return label;
        }

        /**
         * The reason a failed handshake was one of these, from the JDK's exception: its message for a missing
         * certificate, and the certificate check's exception among its causes otherwise.
         */
        static Optional<Reason> of(Throwable failure) {
            boolean certificateRefused = false;
            for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
                if (cause.getMessage() != null && cause.getMessage().contains("Empty client certificate chain")) {
                    return Optional.of(NO_CERTIFICATE);
                }
                if (cause instanceof CertificateExpiredException || cause instanceof CertPathValidatorException path
                        && path.getReason() == CertPathValidatorException.BasicReason.EXPIRED) {
                    return Optional.of(EXPIRED);
                }
                certificateRefused |= cause instanceof CertificateException;
            }
            return certificateRefused ? Optional.of(UNTRUSTED) : Optional.empty();
        }
    }

    /** When a reason's last line was written, and the refusals of that reason not written since. */
    private static final class LastLine {
        private Instant writtenAt = Instant.MIN;
        private long unwritten;
    }

    private final Clock clock;
    private final Map<Reason, LastLine> lastLines = new EnumMap<>(Reason.class);
    private volatile Map<Reason, Counter> counters = Map.of();

    ClientCertificateRefusals(Clock clock) {
        this.clock = clock;
        Arrays.stream(Reason.values()).forEach(reason -> lastLines.put(reason, new LastLine()));
    }

    /** Counts the refusals from now on in {@code registry}, one series per reason, present at zero from the start. */
    void countIn(MeterRegistry registry) {
        counters = Arrays.stream(Reason.values()).collect(Collectors.toUnmodifiableMap(reason -> reason,
                reason -> Counter.builder(METRIC)
                        .description("TLS handshakes refused for the client's certificate: none, expired, or not "
                                + "signed by a trusted CA")
                        .tag("reason", reason.label())
                        .register(registry)));
    }

    @Override
    public void handshakeFailed(Event event, Throwable failure) {
        // Jetty creates a server's engine with the peer's address, which the engine gives as its peer host.
        Reason.of(failure).ifPresent(reason -> refused(reason, event.getSSLEngine().getPeerHost()));
    }

    private void refused(Reason reason, String peer) {
        Counter counter = counters.get(reason);
        if (counter != null) {
            counter.increment();
        }
        Instant now = clock.instant();
        long unwritten;
        synchronized (lastLines) {
            LastLine last = lastLines.get(reason);
            if (now.isBefore(last.writtenAt.plus(LINE_EVERY))) {
                last.unwritten++;
                return;
            }
            unwritten = last.unwritten;
            last.writtenAt = now;
            last.unwritten = 0;
        }
        ApiLog.LOG.warn("TLS handshake from {} refused: {}{}", peer, reason.words,
                unwritten == 0 ? "" : " (and " + unwritten + " more refused so since the last such line)");
    }
}
