package dev.plantstore.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
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
        Files.writeString(dir.resolve("password"), "correct horse\n");
        Path cert = selfSigned("sealed", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-passout",
                "file:" + dir.resolve("password"));
        Path key = dir.resolve("sealed.key");
        assertTrue(Files.readString(key).startsWith("-----BEGIN ENCRYPTED PRIVATE KEY-----"));
        new TlsFiles(cert, key, Optional.of(dir.resolve("password")), Optional.empty()).read();
        assertEquals("--tls-key-file " + key + " is encrypted: give its password in --tls-key-password-file",
                assertThrows(UsageException.class,
                        () -> new TlsFiles(cert, key, Optional.empty(), Optional.empty()).read()).getMessage());
        Files.writeString(dir.resolve("wrong"), "wrong horse\n");
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
        Path cutKey = Files.writeString(dir.resolve("cut.key"), key.substring(0, key.length() - 30));
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
}
