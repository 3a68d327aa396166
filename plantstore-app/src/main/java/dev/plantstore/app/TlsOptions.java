package dev.plantstore.app;

import static dev.plantstore.app.OptionValues.requireNonBlank;

import java.nio.file.Path;
import java.util.Optional;

/**
 * The TLS options, declared as every other option and listed in {@link Options#TABLE}. The management port, when
 * there is one, serves the same key pair (a probe or a scrape then uses {@code https}), but asks for no client
 * certificate: Kubernetes' probes and most scrapers present none, and the port answers no API request.
 */
final class TlsOptions {

    static final Option<Optional<Path>> CERT_FILE = Option.withoutDefault("--tls-cert-file", "FILE",
            "the server's certificate chain, PEM, its own certificate first: with --tls-key-file the API port, and the "
                    + "management port, speak only TLS 1.3 and 1.2, HTTP/2 and HTTP/1.1; both files are read again "
                    + "once they change and are stable",
            TlsOptions::path, Optional.empty(), "");
    static final Option<Optional<Path>> KEY_FILE = Option.withoutDefault("--tls-key-file", "FILE",
            "the certificate's private key, PEM: PKCS#8 (BEGIN PRIVATE KEY, or BEGIN ENCRYPTED PRIVATE KEY with "
                    + "--tls-key-password-file), RSA or EC",
            TlsOptions::path, Optional.empty(), "");
    static final Option<Optional<Path>> KEY_PASSWORD_FILE = Option.withoutDefault("--tls-key-password-file", "FILE",
            "the password of an encrypted --tls-key-file, the file's first line", TlsOptions::path, Optional.empty(),
            "");
    static final Option<Optional<Path>> CLIENT_CA_FILE = Option.withoutDefault("--tls-client-ca-file", "FILE",
            "CA certificates, PEM: the API port then requires a client certificate one of them signed, and a token "
                    + "as well",
            TlsOptions::path, Optional.empty(), "");

    private TlsOptions() {
    }

    /** Refuses the TLS options given without the pair they belong to. */
    static void requireComplete(boolean cert, boolean key, boolean keyPassword, boolean clientCa)
            throws UsageException {
        if (cert != key) {
            throw new UsageException("--tls-cert-file and --tls-key-file go together: a certificate is served with its "
                    + "private key");
        }
        if (!cert && (keyPassword || clientCa)) {
            throw new UsageException((keyPassword ? "--tls-key-password-file" : "--tls-client-ca-file")
                    + " needs --tls-cert-file and --tls-key-file");
        }
    }

    private static Optional<Path> path(Option.Given given) throws UsageException {
        return Optional.of(Path.of(requireNonBlank(given)));
    }
}
