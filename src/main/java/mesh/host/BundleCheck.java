package mesh.host;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import mesh.bundle.BundleFailure;
import mesh.bundle.BundleRef;
import mesh.bundle.HttpRegistry;
import mesh.wire.BundlesAnswer;
import mesh.wire.BundlesRequest;

/**
 * BundleCheck answers {@code POST /v1/bundles} (a take's preflight): which of the bundles this node lacks
 * and cannot get, fetching each one it lacks first when asked to. It runs on the agent's loop, like every
 * fetch, so no cleaning of bundles races it.
 */
final class BundleCheck {

    /** Fetch is how a bundle is fetched and unpacked into a folder ({@link ProcessComponents#fetch}). */
    interface Fetch {
        String fetch(BundleRef ref, String registry, Path dir);
    }

    private final Path stateDir;
    private final Fetch fetcher;

    BundleCheck(Path stateDir, Fetch fetch) {
        this.stateDir = stateDir;
        this.fetcher = fetch;
    }

    /** The request's bundles (blank ones and repeats left out) that are missing here, each with why. */
    BundlesAnswer missing(BundlesRequest request) {
        List<String> wanted = request.bundles() == null ? List.of() : request.bundles().stream()
                .filter(b -> b != null && !b.isBlank()).distinct().toList();
        List<BundlesAnswer.Missing> missing = new ArrayList<>();
        for (String b : wanted) {
            missing(b, request.registry(), request.fetch()).ifPresent(why -> missing.add(new BundlesAnswer.Missing(b, why)));
        }
        return new BundlesAnswer(missing);
    }

    /**
     * Whether the bundle ({@code NAME@sha256:HEX}) is here, unpacked as a start would use it; with
     * {@code fetch}, fetches and unpacks it from {@code registry} when it is not (so the start that follows
     * finds it). Without, only asks the store whether it has the manifest. Empty when it is here or can be
     * had; else why not. Runs on the agent's loop, like every fetch, so no cleaning of bundles races it.
     */
    Optional<String> missing(String bundle, String registry, boolean fetch) {
        BundleRef ref;
        try {
            ref = BundleRef.parse(bundle);
        } catch (IllegalArgumentException e) {
            return Optional.of(e.getMessage());
        }
        if (!ref.pinned()) {
            return Optional.of("a bundle is checked by digest only (NAME@sha256:...)");
        }
        Path dir = stateDir.resolve("bundles").resolve("unpacked").resolve(ref.digest().hex());
        if (Files.isDirectory(dir)) {
            return Optional.empty();
        }
        if (registry == null || registry.isBlank()) {
            return Optional.of("not on this node, and no artifact store was named to fetch it from");
        }
        try {
            if (fetch) {
                fetcher.fetch(ref, registry, dir);
            } else {
                try (java.io.InputStream manifest = new HttpRegistry(registry).manifest(ref.name(), ref.digest().toString())) {
                    manifest.readNBytes(1);
                }
            }
            return Optional.empty();
        } catch (BundleFailure e) {
            return Optional.of(e.getMessage());
        } catch (IOException e) {
            return Optional.of("the artifact store at " + registry + " broke off: " + e.getMessage());
        }
    }

}
