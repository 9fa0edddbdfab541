package mesh.trust;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class CertExpiryTest {

    static final Instant NOW = Instant.parse("2026-11-30T12:00:00Z");

    @Test
    void nothingUntilThirtyDaysBeforeThenTheDayAndHowLong() {
        assertEquals(Optional.empty(), CertExpiry.warning("the controller's certificate", NOW.plus(Duration.ofDays(31)), NOW));
        assertEquals(Optional.of("warning: the controller's certificate expires on 2026-12-30 (in 30 days); reissue it before"
                + " (docs/trust.md)"), CertExpiry.warning("the controller's certificate", NOW.plus(Duration.ofDays(30)), NOW));
        assertEquals(Optional.of("warning: the mesh CA expires on 2026-12-01 (in 1 day); reissue it before (docs/trust.md)"),
                CertExpiry.warning("the mesh CA", NOW.plus(Duration.ofHours(25)), NOW));
        assertEquals(Optional.of("warning: the mesh CA expires on 2026-11-30 (in less than a day); reissue it before"
                + " (docs/trust.md)"), CertExpiry.warning("the mesh CA", NOW.plus(Duration.ofHours(2)), NOW));
    }

    @Test
    void anExpiredOneSaysConnectionsFail() {
        assertEquals(Optional.of("warning: the mesh CA expired on 2026-11-29; every TLS connection to it fails until it is"
                + " reissued (docs/trust.md)"), CertExpiry.warning("the mesh CA", NOW.minus(Duration.ofDays(1)), NOW));
    }
}
