package mesh.controller;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Set;
import mesh.model.Conflict;
import mesh.model.NotFound;
import mesh.plan.BundlePins;
import mesh.plan.MeshPlanner;
import mesh.plan.PushInput;
import mesh.plan.Rollback;
import mesh.store.MeshStore;
import mesh.store.PushInputs;
import mesh.store.PushLock;
import mesh.store.TakeRecords;
import mesh.wire.KeptPush;
import mesh.wire.PushReport;

/**
 * MeshRollback is {@code mesh rollback PUSH}: it reads the input push PUSH planned from, lets
 * {@link Rollback} decide what to plan from it on today's nodes, and hands that to {@link MeshPush},
 * which previews, judges the budget and the mesh's own modules, sends, and (unless a dry run) stores
 * the restored catalogue and placements in the transaction that records the rollback's push.
 */
@ApplicationScoped
public class MeshRollback {

    @Inject
    MeshStore store;

    @Inject
    MeshPush pushes;

    public PushReport rollback(long push, boolean dryRun, boolean yes, Set<String> forced) {
        try (PushLock lock = store.lockPushes()) {
            PushInput input = store.inTransaction(c -> {
                TakeRecords.running(c).stream().findFirst().ifPresent(t -> {
                    throw new Conflict("a take of module " + t.module() + " is under way; roll back when it has ended"
                            + " ('mesh status' shows it); nothing was changed");
                });
                java.util.Optional<PushInput> kept = PushInputs.find(c, push);
                if (kept.isEmpty()) {
                    throw new NotFound(Rollback.notKept(push, PushInputs.auditVerb(c, push).orElse(null)));
                }
                return kept.get();
            });
            MeshStore.PushSnapshot s = store.pushSnapshot();
            Rollback.Restored r = Rollback.restore(input, s.nodes(), s.placements(), s.sources().keySet());
            BundlePins pins = Rollback.pins(input, BundleResolver.resolve(r.manifests(), r.placements(),
                    MeshPlanner.registryUrl(s.nodes(), r.placements())));
            return pushes.planAndSend(new PushPlanInput(s, r.catalogue(), r.placements(), pins, r.notes(), push),
                    List.of(), dryRun, yes, null, forced, false);
        }
    }

    /** The pushes that can be rolled back to, newest first. */
    public List<KeptPush> kept() {
        return store.inTransaction(PushInputs::list).stream().map(k -> new KeptPush(k.push(), k.at().toString(), k.token(),
                k.verb(), k.change(), k.modules(), k.rollbackOf())).toList();
    }
}
