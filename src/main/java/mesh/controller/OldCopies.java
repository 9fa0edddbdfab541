package mesh.controller;

import mesh.wire.CallFailure;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import mesh.model.Conflict;
import mesh.model.Node;
import mesh.model.NotFound;
import mesh.model.Placement;
import mesh.plan.OldCopyCleanup;
import mesh.plan.TakeStart;
import mesh.store.MeshStore;
import mesh.store.TakeRecords;
import mesh.wire.ForgottenCopies;

/**
 * OldCopies is {@code mesh take --forget-old MODULE}: it removes the copies of the module's data
 * that its takes left on their sources, and nothing else. Each node's agent deletes only volumes it
 * has recorded as that take's old copy (reason forget-old), never the copy the module runs on.
 */
@ApplicationScoped
public class OldCopies {

    @Inject
    MeshStore store;

    @Inject
    AuditTrail audit;

    @Inject
    AgentClient agents;

    public ForgottenCopies forget(String module) {
        record Found(List<TakeRecords.OldCopy> copies, Map<String, Node> nodes, String runsOn,
                     Map<String, String> kinds) {
        }
        Found f = store.inTransaction(c -> {
            MeshStore.StoredModule m = store.module(c, module).orElseThrow(() -> new NotFound("unknown module " + module
                    + "; 'mesh catalogue list' shows the modules"));
            if (TakeRecords.running(c, module).isPresent()) {
                throw new Conflict("a take of module " + module + " is under way; forget its old copies after it ends");
            }
            List<TakeRecords.OldCopy> copies = TakeRecords.oldCopies(c, module);
            if (copies.isEmpty()) {
                throw new NotFound("module " + module + " has no old copy: no take left one, or it was forgotten");
            }
            Map<String, Node> nodes = new java.util.TreeMap<>();
            store.nodes(c).forEach(n -> nodes.put(n.name(), n));
            Placement p = store.placement(c, module);
            Map<String, String> kinds = new java.util.TreeMap<>();
            TakeStart.volumes(m.manifest()).forEach(v -> kinds.put(v.name(), v.kind()));
            return new Found(copies, nodes, p.taken(), kinds);
        });
        TakeAgents calls = new TakeAgents(agents);
        List<ForgottenCopies.Copy> removed = new ArrayList<>();
        List<OldCopyCleanup.Copy> copies = f.copies().stream()
                .map(c -> new OldCopyCleanup.Copy(c.node(), c.epoch(), c.volumes())).toList();
        for (OldCopyCleanup.Step step : OldCopyCleanup.steps(module, copies, f.nodes().keySet(), f.runsOn(), f.kinds())) {
            OldCopyCleanup.Copy copy = step.copy();
            switch (step) {
                case OldCopyCleanup.Skip skip -> {
                    continue;  // the module runs there on this data now: it is no old copy
                }
                case OldCopyCleanup.Refuse refuse -> throw new Conflict(refuse.why());
                case OldCopyCleanup.Delete delete -> {
                    Node node = f.nodes().get(copy.node());
                    for (OldCopyCleanup.Volume volume : delete.volumes()) {
                        try {
                            calls.delete(node, module, volume.name(), volume.kind(), copy.epoch(), "forget-old");
                        } catch (CallFailure e) {
                            if (!alreadyGone(e.reason())) {
                                throw e;
                            }
                            // a later take into that node emptied this volume for its own copy (and took it, or its
                            // rollback deleted it): the agent no longer records it as this old copy, nothing is left
                        }
                    }
                }
            }
            store.inTransaction(c -> {
                TakeRecords.forget(c, module, copy.node(), copy.epoch());
                audit.record(c, "take --forget-old", "module " + module + ": the old copy on " + copy.node()
                        + " left at epoch " + copy.epoch() + " removed (" + String.join(", ", copy.volumes()) + ")");
                return null;
            });
            removed.add(new ForgottenCopies.Copy(copy.node(), copy.epoch(), copy.volumes()));
        }
        return new ForgottenCopies(module, removed);
    }

    /**
     * Whether an agent's refusal of a forget-old delete (of one volume, at one epoch) says the volume is no longer
     * the old copy of the take at that epoch there ({@link mesh.wire.Reason#NOT_OLD_COPY}): a later take into that
     * node emptied it for its own copy, which is done or rolled back, so nothing of the old copy is left.
     */
    static boolean alreadyGone(mesh.wire.Reason reason) {
        return reason == mesh.wire.Reason.NOT_OLD_COPY;
    }
}
