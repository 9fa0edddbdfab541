package mesh.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class BundleRetentionTest {

    static final Instant NOW = Instant.parse("2026-11-30T12:00:00Z");
    static final BundleRetention.Policy POLICY = new BundleRetention.Policy(2, Duration.ofHours(24));

    static BundleRetention.Held held(String digest, long hoursAgo) {
        return new BundleRetention.Held(digest, NOW.minus(Duration.ofHours(hoursAgo)));
    }

    @Test
    void aBundleInUseIsKeptHoweverOldAndHoweverMany() {
        List<BundleRetention.Held> held = List.of(held("a", 1000), held("b", 500), held("c", 400));
        assertEquals(List.of(), BundleRetention.toDelete(held, Set.of("a", "b", "c"), NOW, new BundleRetention.Policy(0, Duration.ZERO)));
    }

    @Test
    void theNewestUnusedOnesAreKeptUpToTheBoundAndTheRestGoOldestFirst() {
        List<BundleRetention.Held> held = List.of(held("used", 100), held("u1", 1), held("u2", 2), held("u3", 3), held("u4", 4));
        assertEquals(List.of("u4", "u3"), BundleRetention.toDelete(held, Set.of("used"), NOW, POLICY));
    }

    @Test
    void anUnusedOneNotUsedWithinTheRecentWindowGoesEvenUnderTheBound() {
        List<BundleRetention.Held> held = List.of(held("fresh", 23), held("stale", 25));
        assertEquals(List.of("stale"), BundleRetention.toDelete(held, Set.of(), NOW, POLICY));
    }

    @Test
    void nothingHeldNothingDeleted() {
        assertEquals(List.of(), BundleRetention.toDelete(List.of(), Set.of("a"), NOW, POLICY));
    }

    @Test
    void aNegativePolicyIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new BundleRetention.Policy(-1, Duration.ZERO));
    }
}
