package dev.plantstore.app;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.eclipse.jetty.util.ssl.SslContextFactory;

/**
 * The TLS key pair in use, read again when its files change, so that a renewed certificate (cert-manager, certbot) is
 * served without a restart. Jetty does the serving: each port's {@link SslContextFactory.Server} is
 * {@linkplain SslContextFactory#reload reloaded} with the new pair, which new connections get; connections already
 * open finish on the pair they began with.
 *
 * <p>The files are looked at every {@link #CHECK_EVERY}, their contents through any symbolic link, so that an edit in
 * place, a replacement by rename and a Kubernetes secret's swap of its {@code ..data} link are all seen. A change is
 * read once two looks in a row find the same contents, so that a renewal that writes the certificate and then the key
 * is read once both are written. A pair that does not match, or a file cut short, is refused with one line in the log
 * and the pair in use stays, until the files change again.
 *
 * <p>A certificate that expires within {@link #EXPIRY_WARNING} is a warning in the log, once per certificate; the
 * metric {@value #EXPIRY_METRIC} says how long the one in use has left.
 */
final class ReloadingTls implements AutoCloseable {

    static final Duration CHECK_EVERY = Duration.ofSeconds(2);
    static final Duration EXPIRY_WARNING = Duration.ofDays(14);
    static final String EXPIRY_METRIC = "plantstore.tls.certificate.expiry";

    private static final System.Logger LOG = System.getLogger(ReloadingTls.class.getName());

    private final Clock clock;
    private final SslContextFactory.Server api = new SslContextFactory.Server();
    private final SslContextFactory.Server management = new SslContextFactory.Server();
    private final StableFileWatch<List<ByteBuffer>, TlsFiles.Read> watch;
    private volatile TlsFiles.Read current;
    /** The certificate last warned about, so that its warning is written once. */
    private Optional<X509Certificate> warned = Optional.empty();

    private ReloadingTls(TlsFiles files, TlsFiles.Read first, List<ByteBuffer> firstLook, Clock clock,
                         Duration checkEvery) {
        this.clock = clock;
        this.current = first;
        use(api, first, true);
        use(management, first, false);
        warnIfExpiring();
        this.watch = new StableFileWatch<>("plantstore-tls-files", LOG,
                new StableFileWatch.Wording<>("the TLS files", "are", "the key pair read before stays in use",
                        "the files are still watched", read -> "new connections get certificate " + read.describe()),
                firstLook, () -> look(files), files::read, this::reload, this::warnIfExpiring, checkEvery);
    }

    /** Reads the pair now, refusing it as start-up refuses, then watches its files every {@code checkEvery}. */
    static ReloadingTls watch(TlsFiles files, Duration checkEvery) throws UsageException {
        List<ByteBuffer> firstLook;
        try {
            firstLook = look(files);
        } catch (IOException e) {
            throw new UsageException("cannot read the TLS files: " + Failures.rootMessage(e));
        }
        return new ReloadingTls(files, files.read(), firstLook, Clock.systemUTC(), checkEvery);
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

    private void warnIfExpiring() {
        X509Certificate leaf = current.leaf();
        Instant expiry = leaf.getNotAfter().toInstant();
        if (expiry.isBefore(clock.instant().plus(EXPIRY_WARNING)) && !warned.equals(Optional.of(leaf))) {
            warned = Optional.of(leaf);
            LOG.log(System.Logger.Level.WARNING, "the TLS certificate " + leaf.getSubjectX500Principal().getName()
                    + " expires " + expiry + ", within " + EXPIRY_WARNING.toDays() + " days: renew it");
        }
    }

    private static List<ByteBuffer> look(TlsFiles files) throws IOException {
        List<ByteBuffer> contents = new ArrayList<>();
        for (Path file : files.all()) {
            contents.add(ByteBuffer.wrap(Files.readAllBytes(file)));
        }
        return List.copyOf(contents);
    }
}
