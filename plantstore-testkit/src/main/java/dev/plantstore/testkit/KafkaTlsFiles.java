package dev.plantstore.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.Base64;
import java.util.concurrent.TimeUnit;

/**
 * A self-signed certificate for 127.0.0.1 for a test broker's SASL_SSL listener, and beside it its key and the
 * certificate as Kafka's PEM key store.
 */
record KafkaTlsFiles(Path certificate, Path keyStore) {

    /** Made by the JDK's keytool, as {@link LocalhostKeys}, and written out in PEM, the key unencrypted (PKCS #8). */
    static KafkaTlsFiles selfSigned(Path dir) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        Path store = dir.resolve("broker.p12");
        String password = "test-only";
        Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-alias", "broker", "-keyalg", "EC", "-groupname", "secp256r1", "-dname",
                "CN=127.0.0.1", "-ext", "SAN=ip:127.0.0.1", "-validity", "2", "-storetype", "PKCS12", "-keystore",
                store.toString(), "-storepass", password).redirectErrorStream(true)
                .redirectOutput(dir.resolve("keytool.out").toFile()).start();
        if (!keytool.waitFor(60, TimeUnit.SECONDS) || keytool.exitValue() != 0) {
            keytool.destroyForcibly();
            throw new IllegalStateException("keytool failed: " + Files.readString(dir.resolve("keytool.out")));
        }
        String key;
        String certificate;
        try (InputStream in = Files.newInputStream(store)) {
            KeyStore keys = KeyStore.getInstance("PKCS12");
            keys.load(in, password.toCharArray());
            key = pem("PRIVATE KEY", keys.getKey("broker", password.toCharArray()).getEncoded());
            certificate = pem("CERTIFICATE", keys.getCertificate("broker").getEncoded());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the broker's key store cannot be read", e);
        }
        Path certificateFile = dir.resolve("certificate.pem");
        Files.writeString(certificateFile, certificate);
        Path keyStore = dir.resolve("key-and-certificate.pem");
        Files.writeString(keyStore, key + certificate);
        return new KafkaTlsFiles(certificateFile, keyStore);
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }
}
