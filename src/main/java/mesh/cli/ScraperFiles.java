package mesh.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import mesh.trust.MeshCa;
import mesh.trust.Pem;
import mesh.wire.ScraperCertificate;
import mesh.wire.ScraperRequest;

/**
 * ScraperFiles keeps the scraper's credential in a folder of the operator's machine: {@code scraper.key} (0600, made
 * here, never sent), {@code scraper.crt} (issued by the seat's controller for its public half) and {@code ca.crt}
 * (the mesh CA). A certificate there that the same CA issued and that is valid for 30 more days is kept, so printing
 * the scrape config again issues nothing.
 */
final class ScraperFiles {

    /** A certificate that expires sooner than this is issued again. */
    static final Duration RENEW_BEFORE = Duration.ofDays(30);

    private final Path dir;

    ScraperFiles(Path dir) {
        this.dir = dir.toAbsolutePath().normalize();
    }

    ScrapeConfig.Files files() {
        return new ScrapeConfig.Files(dir.resolve("ca.crt"), dir.resolve("scraper.crt"), dir.resolve("scraper.key"));
    }

    /** Whether the folder holds a key and a certificate of {@code ca} valid past {@code now} + 30 days. */
    boolean current(X509Certificate ca, Instant now) {
        ScrapeConfig.Files f = files();
        if (!Files.isRegularFile(f.key()) || !Files.isRegularFile(f.certificate()) || !Files.isRegularFile(f.ca())) {
            return false;
        }
        try {
            X509Certificate cert = Pem.certificate(f.certificate());
            cert.verify(ca.getPublicKey());
            return cert.getNotAfter().toInstant().isAfter(now.plus(RENEW_BEFORE));
        } catch (RuntimeException | java.security.GeneralSecurityException e) {
            return false;
        }
    }

    /** Makes a key, has {@code issue} certify its public half, and writes the three files; returns the certificate's answer. */
    ScraperCertificate renew(java.util.function.Function<ScraperRequest, ScraperCertificate> issue) {
        KeyPair key = MeshCa.newKey();
        ScraperCertificate answer = issue.apply(new ScraperRequest(Pem.text(key.getPublic())));
        ScrapeConfig.Files f = files();
        try {
            Pem.writeKey(f.key(), key.getPrivate());
            Files.writeString(f.certificate(), answer.certificate());
            Files.writeString(f.ca(), answer.ca());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the scraper's files in " + dir + ": " + e.getMessage(), e);
        }
        return answer;
    }
}
