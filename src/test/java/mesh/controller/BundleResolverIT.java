package mesh.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import mesh.bundle.CraftedBundle;
import mesh.bundle.RegistryFixture;
import mesh.model.Manifest;
import mesh.model.ManifestYaml;
import mesh.model.Placement;
import mesh.plan.BundlePins;
import mesh.testbed.PackagedMesh;
import org.junit.jupiter.api.Test;

/**
 * BundleResolverIT: the controller resolves a catalogue's {@code bundle: NAME:TAG} against a real registry to
 * the digest the tag names now, leaves pinned ones and modules that run nowhere alone, and hands the planner
 * why a bundle could not be resolved (unknown tag, registry down), naming the bundle.
 */
class BundleResolverIT {

    static Manifest module(String name, String bundle) {
        return ManifestYaml.parse(name + ".yaml", "module: " + name + "\ncomponents:\n  " + name + ".app:\n    bundle: " + bundle + "\n");
    }

    @Test
    void aTagIsResolvedToItsDigestAndWhatCannotBeIsSaid() throws Exception {
        try (RegistryFixture registry = new RegistryFixture()) {
            String pinned = CraftedBundle.push(registry.registry(), "it/app", "run",
                    CraftedBundle.Raw.file("run", "#!/bin/sh\n".getBytes())).toString();
            List<Manifest> catalogue = List.of(module("a", "it/app:crafted"), module("b", "it/app:nope"),
                    module("c", "it/idle:1"), module("d", pinned));
            List<Placement> placements = List.of(new Placement("a", "n1", "n1"), new Placement("b", "n1", "n1"),
                    new Placement("c", "n1", null), new Placement("d", "n1", "n1"));

            BundlePins pins = BundleResolver.resolve(catalogue, placements, registry.url);
            assertEquals(java.util.Map.of("it/app:crafted", pinned), pins.pinned());
            assertEquals(List.of("it/app:nope"), List.copyOf(pins.failures().keySet()), "c runs nowhere, d is pinned");
            assertTrue(pins.failures().get("it/app:nope").startsWith("bundle it/app:nope: "), pins.failures().toString());

            String down = "http://127.0.0.1:" + PackagedMesh.freePort();
            BundlePins none = BundleResolver.resolve(catalogue, placements, down);
            assertEquals(java.util.Map.of(), none.pinned());
            assertTrue(none.failures().get("it/app:crafted").contains("the artifact store at " + down + " does not answer"),
                    none.failures().toString());
        }
    }
}
