package dev.plantstore.app;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.eclipse.jetty.util.ssl.SslContextFactory;

/**
 * The TLS key pair in use, read again when its files change, so a renewed certificate (cert-manager, certbot) is
 * served without a restart: each port's {@link SslContextFactory.Server} is {@linkplain SslContextFactory#reload
 * reloaded}, new connections get the new pair. The files are looked at every {@link #CHECK_EVERY} as
 * {@link PrivateFile} looks at secrets, so a FIFO or device put in their place is never opened, and a change is read
 * once two looks agree (a renewal writes the certificate, then the key). A mismatched, cut or refused pair, or a
 * certificate expired or not yet valid, is one line and the pair in use stays. Expiry within
 * {@link #EXPIRY_WARNING} is warned of daily; {@value #EXPIRY_METRIC} says how long is left.
 */
final class ReloadingTls implements AutoCloseable {

    static final Duration CHECK_EVERY = Duration.ofSeconds(2);
    static final Duration EXPIRY_WARNING = Duration.ofDays(14);
    static final String EXPIRY_METRIC = "plantstore.tls.certificate.expiry";

    private static final System.Logger LOG = System.getLogger(ReloadingTls.class.getName());

    private final Clock clock;
    private final SslContextFactory.Server api = new SslContextFactory.Server();
    private final SslContextFactory.Server management = new SslContextFactory.Server();
    private final StableFileWatch<List<Optional<PrivateFile.Look>>, TlsFiles.Read> watch;
    private volatile TlsFiles.Read current;
    /** The certificate last warned about, and when, so that its warning is written once a day. */
    private Optional<X509Certificate> warned = Optional.empty();
    private Instant warnedAt = Instant.MIN;

    private ReloadingTls(TlsFiles files, TlsFiles.Read first, List<Optional<PrivateFile.Look>> firstLook, Clock clock,
                         Duration checkEvery) {
        this.clock = clock;
        this.current = first;
        use(api, first, true);
        use(management, first, false);
        warnIfExpiring();
        this.watch = new StableFileWatch<>("plantstore-tls-files", LOG,
                new StableFileWatch.Wording<>("the TLS files", "are", "the key pair read before stays in use",
                        "the files are still watched", read -> "new connections get certificate " + read.describe()),
                firstLook, files::look, () -> files.read(clock), this::reload, this::warnIfExpiring, checkEvery);
    }

    /** Reads the pair now, refusing it as start-up refuses, then watches its files every {@code checkEvery}. */
    static ReloadingTls watch(TlsFiles files, Duration checkEvery) throws UsageException {
        return watch(files, checkEvery, Clock.systemUTC());
    }

    /** As {@link #watch(TlsFiles, Duration)}, judging the certificates' validity and expiry by {@code clock}. */
    static ReloadingTls watch(TlsFiles files, Duration checkEvery, Clock clock) throws UsageException {
        List<Optional<PrivateFile.Look>> firstLook = files.look();
        return new ReloadingTls(files, files.read(clock), firstLook, clock, checkEvery);
    }

    /** The API port's TLS: the pair, and the client CAs when configured, whose certificates it then requires. */
    SslContextFactory.Server forApi() {
        return api;
    }

    /** The management port's TLS: the same pair, no client certificate asked for (probes present none). */
    SslContextFactory.Server forManagement() {
        return management;
    }

    /** The certificate in use, as the start-up line names it. */
    String describe() {
        TlsFiles.Read read = current;
        return read.describe() + read.trust().map(trust -> "; client certificates required").orElse("");
    }

    /** Publishes the seconds the certificate in use has left, negative once it has expired. */
    void bindTo(MeterRegistry registry) {
        Gauge.builder(EXPIRY_METRIC, this, tls -> tls.secondsLeft())
                .description("Seconds until the served TLS certificate expires")
                .baseUnit("seconds")
                .register(registry);
    }

    @Override
    public void close() {
        watch.close();
    }

    private double secondsLeft() {
        return Duration.between(clock.instant(), current.leaf().getNotAfter().toInstant()).toSeconds();
    }

    private static void use(SslContextFactory.Server factory, TlsFiles.Read read, boolean clientCertificates) {
        factory.setKeyStore(read.keys());
        factory.setKeyStorePassword(new String(read.password()));
        factory.setKeyManagerPassword(new String(read.password()));
        if (clientCertificates && read.trust().isPresent()) {
            factory.setTrustStore(read.trust().get());
            factory.setNeedClientAuth(true);
        }
    }

    private void reload(TlsFiles.Read read) throws Exception {
        api.reload(factory -> use((SslContextFactory.Server) factory, read, true));
        management.reload(factory -> use((SslContextFactory.Server) factory, read, false));
        current = read;
    }

    /**
     * Warns of a certificate in use that expires within {@link #EXPIRY_WARNING}, or has expired while in use, when it
     * is first seen so and again each day while it lasts, so that the warning is not lost among older lines.
     */
    private void warnIfExpiring() {
        X509Certificate leaf = current.leaf();
        Instant now = clock.instant();
        Instant expiry = leaf.getNotAfter().toInstant();
        boolean due = !warned.equals(Optional.of(leaf)) || !now.isBefore(warnedAt.plus(Duration.ofDays(1)));
        if (expiry.isBefore(now.plus(EXPIRY_WARNING)) && due) {
            warned = Optional.of(leaf);
            warnedAt = now;
            String subject = "the TLS certificate " + leaf.getSubjectX500Principal().getName();
            long days = Duration.between(now, expiry).toDays();
            LOG.log(System.Logger.Level.WARNING, !expiry.isAfter(now)
                    ? subject + " expired on " + expiry + ": renew it; new connections still get it"
                    : subject + " expires in " + (days == 0 ? "less than a day" : days == 1 ? "1 day" : days + " days")
                            + ", on " + expiry + ": renew it");
        }
    }
}
