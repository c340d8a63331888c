package dev.tributary.node.kit;

import java.io.IOException;
import java.io.StringWriter;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * Certificates for the TLS tests, made with Bouncy Castle: a CA, certificates it signs (a node's
 * for 127.0.0.1, a client's, an expired one), and another CA nobody trusts. Written as PEM files
 * (certificate, PKCS#8 key) as the node and the SDK read them.
 */
public final class TestCertificates {
    private static final SecureRandom RANDOM = new SecureRandom();

    /** A certificate and its key, in memory and as PEM files. */
    public record Issued(X509Certificate certificate, PrivateKey key, Path certFile, Path keyFile) {
    }

    private final Path dir;
    private final Issued ca;

    private TestCertificates(Path dir, Issued ca) {
        this.dir = dir;
        this.ca = ca;
    }

    /** A new CA named {@code name}, its files under {@code dir}. */
    public static TestCertificates ca(Path dir, String name) throws Exception {
        Files.createDirectories(dir);
        KeyPair kp = keyPair();
        X500Name subject = new X500Name("CN=" + name);
        Instant now = Instant.now();
        JcaX509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(subject, serial(), Date.from(now.minus(Duration.ofHours(1))),
                Date.from(now.plus(Duration.ofDays(2))), subject, kp.getPublic());
        b.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
        X509Certificate cert = sign(b, kp.getPrivate());
        return new TestCertificates(dir, write(dir, name, cert, kp.getPrivate()));
    }

    public Issued authority() {
        return ca;
    }

    /** A certificate this CA signs, for 127.0.0.1 (as a server's must be) and usable by a client. */
    public Issued issue(String name) throws Exception {
        return issue(name, Instant.now().minus(Duration.ofHours(1)), Instant.now().plus(Duration.ofDays(1)));
    }

    /** A certificate that ran out an hour ago. */
    public Issued expired(String name) throws Exception {
        return issue(name, Instant.now().minus(Duration.ofDays(2)), Instant.now().minus(Duration.ofHours(1)));
    }

    private Issued issue(String name, Instant from, Instant until) throws Exception {
        KeyPair kp = keyPair();
        JcaX509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(ca.certificate(), serial(), Date.from(from),
                Date.from(until), new X500Name("CN=" + name), kp.getPublic());
        b.addExtension(Extension.subjectAlternativeName, false,
                new GeneralNames(new GeneralName[] {new GeneralName(GeneralName.iPAddress, "127.0.0.1"),
                        new GeneralName(GeneralName.dNSName, "localhost")}));
        return write(dir, name, sign(b, ca.key()), kp.getPrivate());
    }

    /** A JDK SSL context presenting {@code who} and trusting this CA (for raw TLS sockets). */
    public SSLContext sslContext(Issued who) throws Exception {
        KeyStore ks = KeyStore.getInstance("PKCS12");
        ks.load(null, null);
        ks.setKeyEntry("me", who.key(), new char[0], new X509Certificate[] {who.certificate()});
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(ks, new char[0]);
        KeyStore ts = KeyStore.getInstance("PKCS12");
        ts.load(null, null);
        ts.setCertificateEntry("ca", ca.certificate());
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(ts);
        SSLContext c = SSLContext.getInstance("TLS");
        c.init(kmf.getKeyManagers(), tmf.getTrustManagers(), RANDOM);
        return c;
    }

    private static KeyPair keyPair() throws Exception {
        KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
        g.initialize(256, RANDOM);
        return g.generateKeyPair();
    }

    private static BigInteger serial() {
        return new BigInteger(64, RANDOM);
    }

    private static X509Certificate sign(JcaX509v3CertificateBuilder b, PrivateKey key) throws Exception {
        return new JcaX509CertificateConverter().getCertificate(b.build(new JcaContentSignerBuilder("SHA256withECDSA").build(key)));
    }

    private static Issued write(Path dir, String name, X509Certificate cert, PrivateKey key) throws IOException {
        Path certFile = dir.resolve(name + ".crt");
        Path keyFile = dir.resolve(name + ".key");
        Files.writeString(certFile, pem(cert));
        Files.writeString(keyFile, pem(new JcaPKCS8Generator(key, null).generate()));
        return new Issued(cert, key, certFile, keyFile);
    }

    private static String pem(Object o) throws IOException {
        StringWriter s = new StringWriter();
        try (JcaPEMWriter w = new JcaPEMWriter(s)) {
            w.writeObject(o);
        }
        return s.toString();
    }
}
