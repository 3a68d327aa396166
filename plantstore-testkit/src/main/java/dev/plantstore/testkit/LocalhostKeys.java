package dev.plantstore.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.concurrent.TimeUnit;

/**
 * A self-signed EC certificate for the host name {@code localhost} (not for its addresses), valid two days, made by
 * the JDK's keytool when a test asks for it, so that no key is committed: for a TLS server in a test, and for the
 * client that trusts it.
 */
public final class LocalhostKeys {

    private static final String PASSWORD = "test-only";

    private final KeyStore keyStore;

    private LocalhostKeys(KeyStore keyStore) {
        this.keyStore = keyStore;
    }

    /** Makes a new key pair; keytool's file is deleted once read. */
    public static LocalhostKeys make() throws IOException, GeneralSecurityException, InterruptedException {
        Path directory = Files.createTempDirectory("plantstore-test-tls");
        Path file = directory.resolve("localhost.p12");
        try {
            Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                    "-genkeypair", "-alias", "localhost", "-keyalg", "EC", "-groupname", "secp256r1", "-dname",
                    "CN=localhost", "-ext", "SAN=dns:localhost", "-validity", "2", "-storetype", "PKCS12",
                    "-keystore", file.toString(), "-storepass", PASSWORD).redirectErrorStream(true).start();
            String output = new String(keytool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!keytool.waitFor(60, TimeUnit.SECONDS) || keytool.exitValue() != 0) {
                throw new IllegalStateException("keytool failed: " + output);
            }
            KeyStore store = KeyStore.getInstance("PKCS12");
            try (InputStream in = Files.newInputStream(file)) {
                store.load(in, PASSWORD.toCharArray());
            }
            return new LocalhostKeys(store);
        } finally {
            Files.deleteIfExists(file);
            Files.delete(directory);
        }
    }

    /** The key pair and its certificate; the certificate alone is what a client trusts. */
    public KeyStore keyStore() {
        return keyStore;
    }

    /** The password of the store and of its key. */
    public char[] password() {
        return PASSWORD.toCharArray();
    }
}
