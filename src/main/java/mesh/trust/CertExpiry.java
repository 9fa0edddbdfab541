package mesh.trust;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;

/**
 * CertExpiry says when a certificate of the mesh needs attention: from 30 days before it expires
 * ({@code mesh status} warns so; docs/trust.md). Pure: the time is passed in.
 */
public final class CertExpiry {

    public static final Duration WARN_BEFORE = Duration.ofDays(30);

    private CertExpiry() {
    }

    /** A warning naming {@code what} if it expires within {@link #WARN_BEFORE} of {@code now} (or has), else empty. */
    public static Optional<String> warning(String what, Instant notAfter, Instant now) {
        if (notAfter.isAfter(now.plus(WARN_BEFORE))) {
            return Optional.empty();
        }
        String day = notAfter.atOffset(ZoneOffset.UTC).toLocalDate().toString();
        if (!notAfter.isAfter(now)) {
            return Optional.of("warning: " + what + " expired on " + day + "; every TLS connection to it fails until it is"
                    + " reissued (docs/trust.md)");
        }
        long days = Duration.between(now, notAfter).toDays();
        return Optional.of("warning: " + what + " expires on " + day + " (in " + (days == 0 ? "less than a day" : days
                + (days == 1 ? " day" : " days")) + "); reissue it before (docs/trust.md)");
    }
}
