package mesh.host;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import mesh.model.Declaration;
import mesh.plan.BundleRetention;

/**
 * CleanBundles, last in a pass, deletes the bundles no declared component or supervised process uses
 * ({@link BundleRetention}). Never throws: bundles it could not delete are tried again at the next pass.
 */
final class CleanBundles implements PassStep {

    private final BiFunction<Declaration, Instant, List<String>> clean;
    private final Clock clock;
    private final Consumer<String> info;
    private final Consumer<String> warn;

    /** {@code clean}: deletes what the retention policy lets go and names it ({@link ProcessComponents#clean}). */
    CleanBundles(BiFunction<Declaration, Instant, List<String>> clean, Clock clock, Consumer<String> info,
                 Consumer<String> warn) {
        this.clean = clean;
        this.clock = clock;
        this.info = info;
        this.warn = warn;
    }

    @Override
    public void run(Context pass) {
        try {
            List<String> deleted = clean.apply(pass.declaration, clock.instant());
            if (!deleted.isEmpty()) {
                info.accept("deleted " + deleted.size() + " bundle(s) no component uses: " + deleted);
            }
        } catch (RuntimeException e) {
            warn.accept("could not clean the unused bundles: " + e.getMessage());
        }
    }
}
