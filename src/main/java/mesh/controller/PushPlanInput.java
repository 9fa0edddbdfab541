package mesh.controller;

import java.util.List;
import mesh.model.Manifest;
import mesh.model.Placement;
import mesh.plan.BundlePins;
import mesh.plan.MeshModules;
import mesh.plan.MeshPlanner;
import mesh.plan.PushInput;
import mesh.store.MeshStore;

/**
 * PushPlanInput is what one push plans from: today's snapshot of the store, and the catalogue, placements and
 * pins to plan (the store's own for a push; a kept push's, restored, for a rollback, whose
 * {@code rollbackOf} names that push and whose {@code notes} lead the report). {@code formerSeats}: deposed seats whose
 * store and controller this push lets go ({@link mesh.plan.FormerSeat}): what they acknowledged is not the mesh's own
 * modules running, so the guard of {@link MeshModules#push} does not count it.
 */
record PushPlanInput(MeshStore.PushSnapshot today, List<PushInput.Module> catalogue, List<Placement> placements, BundlePins pins,
                     List<String> notes, Long rollbackOf, java.util.Set<String> formerSeats) {

    PushPlanInput(MeshStore.PushSnapshot today, List<PushInput.Module> catalogue, List<Placement> placements, BundlePins pins,
                  List<String> notes, Long rollbackOf) {
        this(today, catalogue, placements, pins, notes, rollbackOf, java.util.Set.of());
    }

    /** This input, letting go the seat's modules that the deposed seat {@code node} ran. */
    PushPlanInput fromFormerSeat(String node) {
        return new PushPlanInput(today, catalogue, placements, pins, notes, rollbackOf, java.util.Set.of(node));
    }

    /** What the nodes acknowledged, but the former seats': the running modules {@link MeshModules#push} guards. */
    java.util.Map<String, mesh.model.Declaration> guarded(java.util.Map<String, mesh.model.Declaration> acked) {
        java.util.Map<String, mesh.model.Declaration> kept = new java.util.HashMap<>(acked);
        formerSeats.forEach(kept::remove);
        return kept;
    }

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
