package mesh.controller;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import mesh.model.Conflict;
import mesh.model.Declaration;
import mesh.model.NotFound;
import mesh.plan.MeshModules;
import mesh.plan.MeshPlan;
import mesh.plan.MeshPlanner;
import mesh.plan.PushDecision;
import mesh.plan.Rollback;
import mesh.plan.Take;
import mesh.store.MeshStore;
import mesh.store.PushLock;
import mesh.store.TakeRecords;
import mesh.wire.PlanView;
import mesh.wire.PushReport;

/**
 * MeshPush is {@code mesh push}: it gathers (the store, the agents), lets {@link PushDecision}
 * decide, sends and records; {@code mesh rollback} ({@link MeshRollback}) goes through it too, with a
 * kept push's input restored. {@link PushSender} sends and records. Pushes are serialised by
 * {@link PushLock}; no transaction is open while an agent is asked.
 */
@ApplicationScoped
public class MeshPush {

    @Inject
    MeshStore store;

    @Inject
    MeshController controller;

    @Inject
    MeshSecrets secrets;

    @Inject
    PushSender sender;

    @Inject
    AgentClient agents;

    @Inject
    HeardBuilds heardBuilds;

    /** Plans every node and sends each that differs from what it acknowledged, named or not (see {@link PushDecision}). */
    public PushReport push(List<String> named, boolean dryRun, boolean yes) {
        return push(named, dryRun, yes, null);
    }

    /** The same, for a take ({@code take}, null for none): its declarations name the take and its epoch. */
    public PushReport push(List<String> named, boolean dryRun, boolean yes, Take take) {
        return push(named, dryRun, yes, take, java.util.Set.of(), false);
    }

    /**
     * The same, with the mesh modules the operator named to remove all the same ({@code forced},
     * {@link MeshModules#OVERRIDE}). A plan that drops one of the mesh's own modules that runs now is
     * refused before any agent is asked; a dry run says so in its notes instead. With {@code only}, the named nodes alone
     * are sent ({@link PushDecision.Choice#onlyFor}).
     */
    public PushReport push(List<String> named, boolean dryRun, boolean yes, Take take, java.util.Set<String> forced, boolean only) {
        try (PushLock lock = store.lockPushes()) {
            PushDecision.whileATakeStarts(store.inTransaction(TakeRecords::runningWithRestores)).ifPresent(m -> {
                throw new TakeStarting(m);
            });
            MeshStore.PushSnapshot s = store.pushSnapshot();
            PushDecision.unknownNodes(named, s.nodes()).ifPresent(m -> {
                throw new NotFound(m);
            });
            return planAndSend(PushPlanInput.of(s), named, dryRun, yes, take, forced, only);
        }
    }

    /**
     * Plans {@code in}, previews, judges and (unless a dry run) sends and records; the caller holds the
     * push lock. A plan that drops one of the mesh's own modules that runs now is refused before any
     * agent is asked; a dry run says so in its notes instead.
     */
    PushReport planAndSend(PushPlanInput in, List<String> named, boolean dryRun, boolean yes, Take take,
                           java.util.Set<String> forced, boolean only) {
        MeshStore.PushSnapshot s = in.today();
        // today's secrets, opened for this plan alone (a rollback too: values are not kept per push)
        MeshPlan plan = MeshPlanner.plan(in.manifests(), s.nodes(), in.placements(), in.pins(), secrets.values());
        Map<String, Declaration> acked = MeshModules.acked(s.sent());
        List<String> protect = MeshModules.push(in.guarded(acked), plan, MeshModuleGuard.addresses(s.nodes()),
                controller.storeUrl(), forced);
        if (!protect.isEmpty() && !dryRun) {
            throw new Conflict(String.join("; and ", protect));
        }
        List<PushDecision.Draft> drafts = PushDecision.drafts(plan, s.sent());
        // every node's: the unchanged ones' generations (PushDecision.choose), and every agent's build (WireRule)
        Map<String, AgentAnswer<mesh.wire.HostStatus>> held = AgentClient.ask(drafts, PushDecision.Draft::node,
                d -> agents.statusQuickly(d.node()));
        heardBuilds.note(held);
        PushDecision.Choice chosen = PushDecision.choose(drafts, PushResults.generations(held), named);
        Map<String, String> heldBack = mesh.wire.WireRule.heldBack(mesh.wire.Build.current(), PushResults.builds(held));
        PushDecision.Choice choice = chosen.without(heldBack.keySet()).onlyFor(only ? named : null);
        Map<String, AgentAnswer<PlanView>> previews = AgentClient.ask(choice.targets(), PushDecision.Target::node,
                t -> agents.preview(t.node(), t.declaration()));
        PushDecision.Verdict verdict = PushDecision.judge(previews.values().stream()
                .filter(AgentAnswer::ok).map(p -> PushResults.counted(p.value())).toList(),
                controller.settings().pushBudget(), dryRun, yes);
        verdict.refusal().ifPresent(m -> {
            throw new Conflict(m);
        });
        List<String> notes = PushDecision.notes(in.notes(), in.rollbackOf() == null ? List.of()
                : Rollback.dataNotes(acked, plan), choice, protect);
        List<PushReport.NodeResult> results = dryRun ? PushResults.previewed(choice.targets(), previews)
                : sender.send(in, plan, choice.targets(), notes, take);
        results.addAll(PushResults.heldBack(chosen.targets(), heldBack));
        choice.unchanged().forEach(n -> results.add(new PushReport.NodeResult(n, PushReport.Outcome.UNCHANGED, 0, false, null, null)));
        return new PushReport(dryRun, verdict.replacements(), results, notes, verdict.removals(),
                PushReport.totals(results));
    }
}
