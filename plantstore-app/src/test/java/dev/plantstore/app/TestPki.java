package dev.plantstore.app;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.InputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;

/**
 * Certificates made with openssl for the TLS tests, as an operator makes them: a CA, and pairs it signs with a serial
 * of the test's choosing, for {@code localhost} and 127.0.0.1.
 */
final class TestPki {

    private final Path dir;

    private TestPki(Path dir) {
        this.dir = dir;
    }

    /** A CA named {@code name} in {@code dir}: {@code name.crt} and {@code name.key}. */
    static TestPki ca(Path dir, String name) throws Exception {
        var pki = new TestPki(dir);
        pki.openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "30",
                "-subj", "/CN=" + name, "-keyout", name + ".key", "-out", name + ".crt");
        Files.move(dir.resolve(name + ".crt"), dir.resolve("ca.crt"));
        Files.move(dir.resolve(name + ".key"), dir.resolve("ca.key"));
        return pki;
    }

    Path caCertificate() {
        return dir.resolve("ca.crt");
    }

    /** A pair {@code name.crt}, {@code name.key} this CA signs, valid {@code days}, for localhost and 127.0.0.1. */
    Pair issue(String name, long serial, int days) throws Exception {
        return issue(name, serial, days, "DNS:localhost,IP:127.0.0.1");
    }

    /** As {@link #issue(String, long, int)}, for the names {@code subjectAltName} gives ({@code DNS:api.example}). */
    Pair issue(String name, long serial, int days, String subjectAltName) throws Exception {
        Files.writeString(dir.resolve(name + ".ext"), "subjectAltName=" + subjectAltName + "\n");
        openssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-subj", "/CN=" + name,
                "-keyout", name + ".key", "-out", name + ".csr");
        openssl("x509", "-req", "-in", name + ".csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-set_serial",
                Long.toString(serial), "-days", Integer.toString(days), "-extfile", name + ".ext", "-out",
                name + ".crt");
        return new Pair(dir.resolve(name + ".crt"), dir.resolve(name + ".key"));
    }

    /**
     * A pair for localhost and 127.0.0.1 this CA signs, valid from {@code startDate} to {@code endDate} (openssl's
     * {@code YYYYMMDDHHMMSSZ}), which may be past or to come: signed by {@code openssl ca}, which takes dates where
     * {@code openssl x509} takes only a number of days from now.
     */
    Pair issueValid(String name, long serial, String startDate, String endDate) throws Exception {
        Files.writeString(dir.resolve("ca.cnf"), """
                [ca]
                default_ca = test
                [test]
                database = index.txt
                serial = serial
                new_certs_dir = .
                default_md = sha256
                policy = any
                unique_subject = no
                [any]
                commonName = supplied
                """);
        if (!Files.exists(dir.resolve("index.txt"))) {
            Files.writeString(dir.resolve("index.txt"), "");
        }
        String hex = Long.toHexString(serial);
        Files.writeString(dir.resolve("serial"), (hex.length() % 2 == 1 ? "0" : "") + hex + "\n");
        Files.writeString(dir.resolve(name + ".ext"), "subjectAltName=DNS:localhost,IP:127.0.0.1\n");
        openssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-subj", "/CN=" + name,
                "-keyout", name + ".key", "-out", name + ".csr");
        openssl("ca", "-batch", "-config", "ca.cnf", "-cert", "ca.crt", "-keyfile", "ca.key", "-in", name + ".csr",
                "-out", name + ".crt", "-notext", "-startdate", startDate, "-enddate", endDate, "-extfile",
                name + ".ext");
        return new Pair(dir.resolve(name + ".crt"), dir.resolve(name + ".key"));
    }

    /** A certificate and its key, as PEM files. */
    record Pair(Path cert, Path key) {
    }

    /** A TLS context that trusts this CA only, for a client of the tests. */
    SSLContext clientContext() throws Exception {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        try (InputStream in = Files.newInputStream(caCertificate())) {
            trust.setCertificateEntry("ca", CertificateFactory.getInstance("X.509").generateCertificate(in));
        }
        var factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init(trust);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, factory.getTrustManagers(), null);
        return context;
    }

    /** The serial of the certificate a new connection to {@code port} gets. */
    BigInteger servedSerial(int port) throws Exception {
        try (var socket = (SSLSocket) clientContext().getSocketFactory().createSocket("127.0.0.1", port)) {
            socket.startHandshake();
            return ((X509Certificate) socket.getSession().getPeerCertificates()[0]).getSerialNumber();
        }
    }

    private void openssl(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("openssl"));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        process.waitFor(60, TimeUnit.SECONDS);
        assertEquals(0, process.exitValue(), String.join(" ", command) + "\n" + output);
    }

    /** Runs {@code command} to its end: its exit code and everything it printed. */
    static RunningJar.Completed run(Path dir, String... command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        process.getOutputStream().close();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        process.waitFor(60, TimeUnit.SECONDS);
        return new RunningJar.Completed(process.exitValue(), output, "");
    }
}
