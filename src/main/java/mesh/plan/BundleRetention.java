package mesh.plan;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/**
 * BundleRetention decides which bundles a host agent deletes from its disk (each bundle, by digest, is
 * an unpacked folder and its cached download). It exists because every new digest a push brings adds a
 * folder, and without it an agent's disk only grows.
 *
 * <p>Never deleted: a bundle a declared component uses, or one a supervised process still runs from. Of
 * the others, the {@link Policy#keepUnused()} most recently used ones are kept while their last use is
 * within {@link Policy#recent()} (a rollback to the previous digest then starts without a fetch); every
 * other one is deleted. Pure: the caller lists what is held, passes the time and deletes.
 */
public final class BundleRetention {

    /** Held is one bundle on disk: its digest (hex) and when a declaration last used it. */
    public record Held(String digest, Instant lastUsed) {
    }

    /** Policy: how many unused bundles are kept at most, and for how long after their last use. */
    public record Policy(int keepUnused, Duration recent) {

        /** Three previous digests, for a day: room for a rollback or two, bounded. */
        public static final Policy DEFAULT = new Policy(3, Duration.ofHours(24));

        public Policy {
            if (keepUnused < 0 || recent.isNegative()) {
                throw new IllegalArgumentException("a bundle retention keeps zero or more bundles for zero or more time");
            }
        }
    }

    private BundleRetention() {
    }

    /** The digests of {@code held} to delete, oldest use first. */
    public static List<String> toDelete(List<Held> held, Set<String> inUse, Instant now, Policy policy) {
        List<Held> unused = held.stream().filter(h -> !inUse.contains(h.digest()))
                .sorted(Comparator.comparing(Held::lastUsed).reversed().thenComparing(Held::digest)).toList();
        Instant cutoff = now.minus(policy.recent());
        List<String> delete = new ArrayList<>();
        for (int i = 0; i < unused.size(); i++) {
            Held h = unused.get(i);
            if (i >= policy.keepUnused() || h.lastUsed().isBefore(cutoff)) {
                delete.add(h.digest());
            }
        }
        return delete.reversed();
    }
}
