package dev.plantstore.app;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.x9.X9ECParameters;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.openssl.PEMEncryptedKeyPair;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.openssl.jcajce.JceOpenSSLPKCS8DecryptorProviderBuilder;
import org.bouncycastle.openssl.jcajce.JcePEMDecryptorProviderBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.pkcs.PKCS8EncryptedPrivateKeyInfo;
import org.bouncycastle.pkcs.PKCSException;

/**
 * The TLS files as configured: the certificate chain and its key (PEM), the key's password file, the client CA bundle.
 * {@link #read()} turns them into key stores for Jetty's {@code SslContextFactory}, refusing in one line a pair whose
 * key does not belong to the certificate, a file cut short, or a key it cannot decrypt. Each file is read as
 * {@link PrivateFile} reads files of secrets, only if it is a regular file of at most 1 MiB, and the key and its
 * password only if no other user may read them or change them ({@link PrivateFile.Privacy#KEY}); the certificates
 * anyone may read. Certificates are read by the JDK, keys by Bouncy Castle's PEM reader, which the JDK lacks.
 */
record TlsFiles(Path cert, Path key, Optional<Path> keyPassword, Optional<Path> clientCa) {

    /** The in-memory key store's entry. */
    static final String ALIAS = "plantstore";

    TlsFiles {
        Objects.requireNonNull(cert, "null cert");
        Objects.requireNonNull(key, "null key");
        Objects.requireNonNull(keyPassword, "null keyPassword");
        Objects.requireNonNull(clientCa, "null clientCa");
    }

    /**
     * A look at each file this configuration reads, for a watch: its attributes, and a digest of its contents when its
     * checks pass; nothing that fails them is opened, so a look never blocks on a FIFO or reads a device.
     */
    List<Optional<PrivateFile.Look>> look() {
        List<Optional<PrivateFile.Look>> looks = new ArrayList<>();
        looks.add(PrivateFile.look(cert, PrivateFile.Privacy.PUBLIC));
        looks.add(PrivateFile.look(key, PrivateFile.Privacy.KEY));
        keyPassword.ifPresent(file -> looks.add(PrivateFile.look(file, PrivateFile.Privacy.KEY)));
        clientCa.ifPresent(file -> looks.add(PrivateFile.look(file, PrivateFile.Privacy.PUBLIC)));
        return List.copyOf(looks);
    }

    /**
     * A pair as read: {@code keys} holds the key and chain under {@link #ALIAS}, protected by {@code password} (made up
     * for this process: the store never leaves memory); {@code trust}, the client CAs, if configured.
     */
    record Read(KeyStore keys, char[] password, X509Certificate leaf, Optional<KeyStore> trust) {

        /** The certificate as a start-up line names it: its subject and expiry, never anything of the key. */
        String describe() {
            return leaf.getSubjectX500Principal().getName() + ", serial " + leaf.getSerialNumber().toString(16)
                    + ", expires " + leaf.getNotAfter().toInstant();
        }
    }

    Read read() throws UsageException {
        return read(Clock.systemUTC());
    }

    /** As {@link #read()}, refusing a certificate that by {@code clock} has expired or is not yet valid. */
    Read read(Clock clock) throws UsageException {
        List<X509Certificate> chain = certificates(cert, "--tls-cert-file");
        requireValid(chain.get(0), clock.instant());
        PrivateKey privateKey = privateKey();
        X509Certificate leaf = chain.get(0);
        requireMatch(privateKey, leaf);
        char[] password = generatedPassword();
        try {
            KeyStore keys = KeyStore.getInstance("PKCS12");
            keys.load(null, null);
            keys.setKeyEntry(ALIAS, privateKey, password, chain.toArray(new Certificate[0]));
            Optional<KeyStore> trust = Optional.empty();
            if (clientCa.isPresent()) {
                KeyStore cas = KeyStore.getInstance("PKCS12");
                cas.load(null, null);
                int i = 0;
                for (X509Certificate ca : certificates(clientCa.get(), "--tls-client-ca-file")) {
                    cas.setCertificateEntry("ca-" + i++, ca);
                }
                trust = Optional.of(cas);
            }
            return new Read(keys, password, leaf, trust);
        } catch (GeneralSecurityException | IOException e) {
            throw new UsageException("the TLS key pair cannot be kept in a key store: " + e);
        }
    }

    private static List<X509Certificate> certificates(Path file, String flag) throws UsageException {
        byte[] pem = PrivateFile.read(file, flag, PrivateFile.Privacy.PUBLIC);
        try {
            List<X509Certificate> certificates = new ArrayList<>();
            for (Certificate each : CertificateFactory.getInstance("X.509")
                    .generateCertificates(new ByteArrayInputStream(pem))) {
                certificates.add((X509Certificate) each);
            }
            if (certificates.isEmpty()) {
                throw new UsageException(flag + " " + file + " holds no PEM certificate");
            }
            return certificates;
        } catch (CertificateException e) {
            throw new UsageException(flag + " " + file + " is not a whole PEM certificate chain ("
                    + Failures.rootMessage(e) + ")");
        }
    }

    private PrivateKey privateKey() throws UsageException {
        Object pem;
        String text = PrivateFile.readText(key, "--tls-key-file", PrivateFile.Privacy.KEY);
        try (var parser = new PEMParser(new StringReader(text))) {
            // openssl ecparam -genkey writes the curve (BEGIN EC PARAMETERS) before the key: it is not the key.
            do {
                pem = parser.readObject();
            } while (pem instanceof ASN1ObjectIdentifier || pem instanceof X9ECParameters);
        } catch (IOException e) {
            throw new UsageException("--tls-key-file " + key + " is not a whole PEM private key ("
                    + Failures.rootMessage(e) + ")");
        }
        try {
            PrivateKeyInfo info;
            if (pem instanceof PrivateKeyInfo plain) {
                info = plain;
            } else if (pem instanceof PEMKeyPair pair) {
                info = pair.getPrivateKeyInfo();
            } else if (pem instanceof PEMEncryptedKeyPair traditional) {
                // Encrypted the traditional way (Proc-Type: 4,ENCRYPTED), as openssl ec -aes256 and genrsa write it.
                info = traditional.decryptKeyPair(new JcePEMDecryptorProviderBuilder()
                        .setProvider(new BouncyCastleProvider()).build(password())).getPrivateKeyInfo();
            } else if (pem instanceof PKCS8EncryptedPrivateKeyInfo encrypted) {
                // Bouncy Castle's own ciphers, given here rather than registered for the whole JVM: the JDK lacks
                // some that openssl encrypts keys with (DES-EDE3-CBC, the default of openssl req).
                info = encrypted.decryptPrivateKeyInfo(new JceOpenSSLPKCS8DecryptorProviderBuilder()
                        .setProvider(new BouncyCastleProvider()).build(password()));
            } else {
                throw new UsageException("--tls-key-file " + key
                        + " holds no PEM private key (BEGIN PRIVATE KEY, BEGIN ENCRYPTED PRIVATE KEY, BEGIN EC PRIVATE"
                        + " KEY, BEGIN RSA PRIVATE KEY)");
            }
            return new JcaPEMKeyConverter().getPrivateKey(info);
        } catch (OperatorCreationException | PKCSException | IOException e) {
            throw new UsageException("--tls-key-file " + key + " cannot be decrypted or read ("
                    + Failures.rootMessage(e) + ")");
        }
    }

    private char[] password() throws UsageException {
        if (keyPassword.isEmpty()) {
            throw new UsageException("--tls-key-file " + key + " is encrypted: give its password in "
                    + "--tls-key-password-file");
        }
        return PrivateFile.readText(keyPassword.get(), "--tls-key-password-file", PrivateFile.Privacy.KEY).lines()
                .findFirst().orElse("").toCharArray();
    }

    /** A client would refuse the certificate outside its validity: so is it, in words that say which end. */
    private void requireValid(X509Certificate leaf, Instant now) throws UsageException {
        String subject = "--tls-cert-file " + cert + " (" + leaf.getSubjectX500Principal().getName() + ")";
        Instant notAfter = leaf.getNotAfter().toInstant();
        Instant notBefore = leaf.getNotBefore().toInstant();
        if (now.isAfter(notAfter)) {
            throw new UsageException(subject + " expired on " + notAfter + ": renew it");
        }
        if (now.isBefore(notBefore)) {
            throw new UsageException(subject + " is not valid before " + notBefore + ": check the clock, or wait");
        }
    }

    /** The key signs, the certificate's public key verifies: the pair belongs together. */
    private void requireMatch(PrivateKey privateKey, X509Certificate leaf) throws UsageException {
        String algorithm = switch (privateKey.getAlgorithm()) {
            case "RSA" -> "SHA256withRSA";
            case "EC" -> "SHA256withECDSA";
            default -> privateKey.getAlgorithm();
        };
        byte[] probe = new byte[32];
        new SecureRandom().nextBytes(probe);
        try {
            Signature signer = Signature.getInstance(algorithm);
            signer.initSign(privateKey);
            signer.update(probe);
            byte[] signature = signer.sign();
            Signature verifier = Signature.getInstance(algorithm);
            verifier.initVerify(leaf.getPublicKey());
            verifier.update(probe);
            if (verifier.verify(signature)) {
                return;
            }
        } catch (GeneralSecurityException e) {
            // A key of another type than the certificate's fails here too: the same refusal.
        }
        throw new UsageException("--tls-key-file " + key + " is not the private key of --tls-cert-file " + cert
                + " (" + leaf.getSubjectX500Principal().getName() + ")");
    }

    private static char[] generatedPassword() {
        byte[] random = new byte[18];
        new SecureRandom().nextBytes(random);
        return Arrays.toString(random).toCharArray();
    }
}
