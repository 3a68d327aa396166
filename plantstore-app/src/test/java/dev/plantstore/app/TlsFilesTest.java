package dev.plantstore.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.plantstore.testkit.Poll;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The PEM files as openssl writes them: which pairs are read, and the one line each refusal is. */
class TlsFilesTest {

    @TempDir
    Path dir;

    private void openssl(String... args) throws Exception {
        String[] command = new String[args.length + 1];
        command[0] = "openssl";
        System.arraycopy(args, 0, command, 1, args.length);
        RunningJar.Completed done = TestPki.run(dir, command);
        assertEquals(0, done.exitCode(), String.join(" ", command) + "\n" + done.stdout());
    }

    private Path selfSigned(String name, String... keyOptions) throws Exception {
        String[] args = {"req", "-x509", "-days", "3", "-subj", "/CN=" + name, "-keyout", name + ".key", "-out",
                name + ".crt"};
        String[] all = new String[args.length + keyOptions.length];
        System.arraycopy(args, 0, all, 0, args.length);
        System.arraycopy(keyOptions, 0, all, args.length, keyOptions.length);
        openssl(all);
        return dir.resolve(name + ".crt");
    }

    /** Readable and writable by its owner only, as openssl writes a key and as the key and its password must be. */
    private static Path privateFile(Path file) throws Exception {
        return Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    }

    @Test
    void anRsaPairAndAnEcPairAreReadWithTheirSubjectAndExpiry() throws Exception {
        Path rsa = selfSigned("rsa", "-newkey", "rsa:2048", "-nodes");
        Path ec = selfSigned("ec", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes");
        for (Path cert : new Path[] {rsa, ec}) {
            String name = cert.getFileName().toString().replace(".crt", "");
            TlsFiles.Read read = new TlsFiles(cert, dir.resolve(name + ".key"), Optional.empty(), Optional.empty())
                    .read();
            assertTrue(read.describe().startsWith("CN=" + name + ", serial "), read.describe());
            assertTrue(read.describe().contains(", expires 20"), read.describe());
            assertTrue(read.trust().isEmpty());
        }
    }

    @Test
    void anEncryptedKeyIsReadWithItsPasswordFileAndRefusedWithoutIt() throws Exception {
        privateFile(Files.writeString(dir.resolve("password"), "correct horse\n"));
        Path cert = selfSigned("sealed", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-passout",
                "file:" + dir.resolve("password"));
        Path key = dir.resolve("sealed.key");
        assertTrue(Files.readString(key).startsWith("-----BEGIN ENCRYPTED PRIVATE KEY-----"));
        new TlsFiles(cert, key, Optional.of(dir.resolve("password")), Optional.empty()).read();
        assertEquals("--tls-key-file " + key + " is encrypted: give its password in --tls-key-password-file",
                assertThrows(UsageException.class,
                        () -> new TlsFiles(cert, key, Optional.empty(), Optional.empty()).read()).getMessage());
        privateFile(Files.writeString(dir.resolve("wrong"), "wrong horse\n"));
        String wrong = assertThrows(UsageException.class,
                () -> new TlsFiles(cert, key, Optional.of(dir.resolve("wrong")), Optional.empty()).read())
                .getMessage();
        assertTrue(wrong.startsWith("--tls-key-file " + key + " cannot be decrypted or read ("), wrong);
    }

    @Test
    void aKeyOfAnotherCertificateACutKeyAndACutCertificateAreRefusedInOneLine() throws Exception {
        Path cert = selfSigned("one", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes");
        selfSigned("two", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes");
        Path otherKey = dir.resolve("two.key");
        String mismatch = assertThrows(UsageException.class,
                () -> new TlsFiles(cert, otherKey, Optional.empty(), Optional.empty()).read()).getMessage();
        assertEquals("--tls-key-file " + otherKey + " is not the private key of --tls-cert-file " + cert + " (CN=one)",
                mismatch);
        String key = Files.readString(dir.resolve("one.key"));
        Path cutKey = privateFile(Files.writeString(dir.resolve("cut.key"), key.substring(0, key.length() - 30)));
        String cut = assertThrows(UsageException.class,
                () -> new TlsFiles(cert, cutKey, Optional.empty(), Optional.empty()).read()).getMessage();
        assertTrue(cut.startsWith("--tls-key-file " + cutKey + " is not a whole PEM private key ("), cut);
        String certificate = Files.readString(cert);
        Path cutCert = Files.writeString(dir.resolve("cut.crt"), certificate.substring(0, certificate.length() / 2));
        String cutChain = assertThrows(UsageException.class,
                () -> new TlsFiles(cutCert, dir.resolve("one.key"), Optional.empty(), Optional.empty()).read())
                .getMessage();
        assertTrue(cutChain.startsWith("--tls-cert-file " + cutCert + " is not a whole PEM certificate chain"),
                cutChain);
        for (String message : new String[] {mismatch, cut, cutChain}) {
            assertEquals(1, message.lines().count(), message);
        }
    }

    /**
     * Each file is checked as the secret files are before it is opened: a FIFO (opening it would wait for a writer
     * for ever) and a device (which may never end) are refused, a key or a password file others may read is refused,
     * while the certificate may be readable by all; each refusal is one line naming the file.
     */
    @Test
    void aFifoADeviceAndAKeyOrPasswordOthersMayReadAreRefusedInOneLine() throws Exception {
        Path cert = selfSigned("one", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes");
        Path key = dir.resolve("one.key");
        assertEquals("rw-r--r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(cert)));
        new TlsFiles(cert, key, Optional.empty(), Optional.empty()).read();

        Path fifo = dir.resolve("fifo.key");
        assertEquals(0, TestPki.run(dir, "mkfifo", fifo.toString()).exitCode());
        assertEquals("--tls-key-file " + fifo + " is a FIFO, not a regular file", refusal(cert, fifo,
                Optional.empty()));
        assertEquals("--tls-cert-file /dev/zero is a character device, not a regular file",
                refusal(Path.of("/dev/zero"), key, Optional.empty()));

        Path open = Files.copy(key, dir.resolve("open.key"));
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rw-r--r--"));
        assertEquals("--tls-key-file " + open + " is open to other users (rw-r--r--); make it private with: chmod 600 "
                + open, refusal(cert, open, Optional.empty()));
        Path password = Files.writeString(dir.resolve("password"), "correct horse\n");
        Files.setPosixFilePermissions(password, PosixFilePermissions.fromString("rw-rw-r--"));
        Path sealed = selfSigned("sealed", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-passout",
                "file:" + password);
        assertEquals("--tls-key-password-file " + password + " is open to other users (rw-rw-r--); make it private "
                + "with: chmod 600 " + password, refusal(sealed, dir.resolve("sealed.key"), Optional.of(password)));
    }

    /**
     * A key root owns may be readable by its group, as a Kubernetes secret mounted with fsGroup and defaultMode 0440
     * has it, never by others; these tests run as root.
     */
    @Test
    void aKeyRootOwnsMayBeReadableByItsGroup() throws Exception {
        Path cert = selfSigned("grouped", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes");
        Path key = dir.resolve("grouped.key");
        assertEquals(0, (int) Files.getAttribute(key, "unix:uid"), "the test runs as root");
        Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("r--r-----"));
        new TlsFiles(cert, key, Optional.empty(), Optional.empty()).read();
        Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("r--rw----"));
        assertTrue(refusal(cert, key, Optional.empty()).contains(" is open to other users (r--rw----)"));
    }

    private static String refusal(Path cert, Path key, Optional<Path> password) {
        String message = assertThrows(UsageException.class,
                () -> new TlsFiles(cert, key, password, Optional.empty()).read()).getMessage();
        assertEquals(1, message.lines().count(), message);
        return message;
    }

    /** A client refuses a certificate outside its validity, and so is it refused, in one line saying which end. */
    @Test
    void aCertificateExpiredOrNotYetValidIsRefused() throws Exception {
        Path cert = selfSigned("dated", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes");
        var files = new TlsFiles(cert, dir.resolve("dated.key"), Optional.empty(), Optional.empty());
        TlsFiles.Read read = files.read();
        Instant notAfter = read.leaf().getNotAfter().toInstant();
        Instant notBefore = read.leaf().getNotBefore().toInstant();
        String expired = assertThrows(UsageException.class,
                () -> files.read(Clock.fixed(notAfter.plusSeconds(1), ZoneOffset.UTC))).getMessage();
        assertEquals("--tls-cert-file " + cert + " (CN=dated) expired on " + notAfter + ": renew it", expired);
        String early = assertThrows(UsageException.class,
                () -> files.read(Clock.fixed(notBefore.minusSeconds(1), ZoneOffset.UTC))).getMessage();
        assertEquals("--tls-cert-file " + cert + " (CN=dated) is not valid before " + notBefore
                + ": check the clock, or wait", early);
    }

    /**
     * The warning of a certificate that expires soon comes at start and again each day while it is in use, with the
     * days left, and says when it has expired.
     */
    @Test
    void theExpiryWarningIsRepeatedEachDayWithTheDaysLeft() throws Exception {
        Path cert = selfSigned("soon", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes");
        var files = new TlsFiles(cert, dir.resolve("soon.key"), Optional.empty(), Optional.empty());
        Instant notAfter = files.read().leaf().getNotAfter().toInstant();
        var clock = new SettableClock(notAfter.minus(Duration.ofDays(2)).minusSeconds(60));
        var log = new ByteArrayOutputStream();
        LogLines.use(new LogLines(log, LogLines.Format.TEXT, new LogLines.Timestamps(ZoneOffset.UTC)));
        try (var tls = ReloadingTls.watch(files, Duration.ofMillis(20), clock)) {
            assertTrue(tls.describe().startsWith("CN=soon, "), tls.describe());
            assertEquals(List.of("expires in 2 days, on " + notAfter + ": renew it"), warnings(log));
            clock.set(clock.instant().plus(Duration.ofDays(1)));
            assertTrue(Poll.until(Duration.ofSeconds(10), Duration.ofMillis(10), () -> warnings(log).size() == 2),
                    log::toString);
            assertEquals("expires in 1 day, on " + notAfter + ": renew it", warnings(log).get(1));
            clock.set(notAfter.plusSeconds(1));
            assertTrue(Poll.until(Duration.ofSeconds(10), Duration.ofMillis(10), () -> warnings(log).size() == 3),
                    log::toString);
            assertEquals("expired on " + notAfter + ": renew it; new connections still get it", warnings(log).get(2));
        } finally {
            LogLines.use(new LogLines(System.err, LogLines.Format.TEXT, new LogLines.Timestamps(ZoneOffset.UTC)));
        }
    }

    /** What the warnings about CN=soon say after its name. */
    private static List<String> warnings(ByteArrayOutputStream log) {
        String prefix = " WARN ReloadingTls - the TLS certificate CN=soon ";
        return log.toString(StandardCharsets.UTF_8).lines().filter(line -> line.contains(prefix))
                .map(line -> line.substring(line.indexOf(prefix) + prefix.length())).toList();
    }

    /**
     * Keys as other tools write them: {@code openssl ecparam -genkey}'s SEC1 key after the curve's parameters, and
     * a key encrypted the traditional way ({@code Proc-Type: 4,ENCRYPTED}), as {@code openssl ec -aes256} writes it.
     */
    @Test
    void aSec1EcKeyAndATraditionallyEncryptedKeyAreRead() throws Exception {
        openssl("ecparam", "-name", "prime256v1", "-genkey", "-out", "sec1.key");
        assertTrue(Files.readString(dir.resolve("sec1.key")).startsWith("-----BEGIN EC PARAMETERS-----"));
        openssl("req", "-x509", "-days", "3", "-subj", "/CN=sec1", "-key", "sec1.key", "-out", "sec1.crt");
        Path cert = dir.resolve("sec1.crt");
        Path sec1 = privateFile(dir.resolve("sec1.key"));
        new TlsFiles(cert, sec1, Optional.empty(), Optional.empty()).read();

        Path password = privateFile(Files.writeString(dir.resolve("password"), "correct horse\n"));
        openssl("ec", "-in", "sec1.key", "-aes256", "-passout", "file:" + password, "-out", "traditional.key");
        Path traditional = privateFile(dir.resolve("traditional.key"));
        assertTrue(Files.readString(traditional).contains("Proc-Type: 4,ENCRYPTED"));
        new TlsFiles(cert, traditional, Optional.of(password), Optional.empty()).read();
        assertEquals("--tls-key-file " + traditional + " is encrypted: give its password in --tls-key-password-file",
                refusal(cert, traditional, Optional.empty()));
    }

    /** A clock a test moves. */
    private static final class SettableClock extends Clock {

        private volatile Instant now;

        SettableClock(Instant now) {
            this.now = now;
        }

        void set(Instant instant) {
            now = instant;
        }

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            throw new UnsupportedOperationException("a test clock has one zone");
        }
    }
}
