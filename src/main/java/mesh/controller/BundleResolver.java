package mesh.controller;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import mesh.bundle.BundleFailure;
import mesh.bundle.BundleFetch;
import mesh.bundle.BundleRef;
import mesh.bundle.HttpRegistry;
import mesh.model.Manifest;
import mesh.model.Placement;
import mesh.plan.BundlePins;

/**
 * BundleResolver is the controller's edge to the artifact store when it plans a push: each
 * {@code bundle: NAME[:TAG]} of a module that runs somewhere is resolved to the digest its tag names
 * now, so the declaration always carries {@code NAME@sha256:HEX} and a tag moved later restarts nothing
 * until the next push. A bundle that cannot be resolved is handed to the planner as a failure, which
 * fails the plan naming the component and the bundle.
 */
final class BundleResolver {

    private BundleResolver() {
    }

    static BundlePins resolve(List<Manifest> catalogue, List<Placement> placements, String registryUrl) {
        Set<String> taken = new TreeSet<>();
        placements.stream().filter(p -> p.taken() != null).forEach(p -> taken.add(p.module()));
        Set<String> wanted = new TreeSet<>();
        for (Manifest m : catalogue) {
            if (taken.contains(m.module())) {
                m.components().values().stream().map(Manifest.Component::bundle)
                        .filter(b -> b != null && !isPinned(b)).forEach(wanted::add);
            }
        }
        if (wanted.isEmpty() || registryUrl == null) {
            return BundlePins.NONE;
        }
        Map<String, String> pinned = new HashMap<>();
        Map<String, String> failures = new HashMap<>();
        HttpRegistry registry;
        try {
            registry = new HttpRegistry(registryUrl);
        } catch (BundleFailure e) {
            wanted.forEach(b -> failures.put(b, e.getMessage()));
            return new BundlePins(pinned, failures);
        }
        for (String written : wanted) {
            try {
                pinned.put(written, BundleFetch.resolve(registry, BundleRef.parse(written)).toString());
            } catch (BundleFailure | IllegalArgumentException e) {
                failures.put(written, e.getMessage());
            }
        }
        return new BundlePins(pinned, failures);
    }

    private static boolean isPinned(String written) {
        try {
            return BundleRef.parse(written).pinned();
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
