package mesh.controller;

import java.util.List;
import mesh.model.Manifest;
import mesh.model.Placement;
import mesh.plan.BundlePins;
import mesh.plan.MeshPlanner;
import mesh.plan.PushInput;
import mesh.store.MeshStore;

/**
 * PushPlanInput is what one push plans from: today's snapshot of the store, and the catalogue, placements and
 * pins to plan (the store's own for a push; a kept push's, restored, for a rollback, whose
 * {@code rollbackOf} names that push and whose {@code notes} lead the report).
 */
record PushPlanInput(MeshStore.PushSnapshot today, List<PushInput.Module> catalogue, List<Placement> placements, BundlePins pins,
                     List<String> notes, Long rollbackOf) {

    /**
     * A push's input: the store's own catalogue (with each manifest's source) and placements, and the bundles
     * resolved to digests here, before planning, so the plan stays pure and every declaration is pinned.
     */
    static PushPlanInput of(MeshStore.PushSnapshot s) {
        List<PushInput.Module> catalogue = s.catalogue().stream()
                .map(m -> new PushInput.Module(m, s.sources().get(m.module()))).toList();
        BundlePins pins = BundleResolver.resolve(s.catalogue(), s.placements(), MeshPlanner.registryUrl(s.nodes(), s.placements()));
        return new PushPlanInput(s, catalogue, s.placements(), pins, List.of(), null);
    }

    List<Manifest> manifests() {
        return catalogue.stream().map(PushInput.Module::manifest).toList();
    }
}
