package mesh.controller;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import mesh.model.Conflict;
import mesh.model.Declaration;
import mesh.model.Manifest;
import mesh.model.Node;
import mesh.model.NotFound;
import mesh.model.Placement;
import mesh.model.PushOrigin;
import mesh.plan.BundlePins;
import mesh.plan.MeshModules;
import mesh.plan.MeshPlan;
import mesh.plan.MeshPlanner;
import mesh.plan.PushDecision;
import mesh.plan.PushInput;
import mesh.plan.Rollback;
import mesh.plan.Take;
import mesh.store.MeshStore;
import mesh.store.PushInputs;
import mesh.store.PushLock;
import mesh.store.StoreFailure;
import mesh.wire.Accepted;
import mesh.wire.PlanCounts;
import mesh.wire.PlanView;
import mesh.wire.PushReport;
import org.jboss.logging.Logger;

/**
 * MeshPush is {@code mesh push}: it gathers (the store, the agents), lets {@link PushDecision}
 * decide, sends and records; {@code mesh rollback} ({@link MeshRollback}) goes through it too, with a
 * kept push's input restored. Each push that sends keeps its input ({@link PushInputs}), in the
 * transaction that records it. Pushes are serialised by {@link PushLock}; no transaction is open
 * while an agent is asked: the store is read in one short transaction, and what is sent is
 * recorded before (the generation) and after (what was acknowledged) in short ones of their own.
 */
@ApplicationScoped
public class MeshPush {

    private static final Logger LOG = Logger.getLogger("mesh.controller");

    @Inject
    MeshStore store;

    @Inject
    MeshController controller;

    @Inject
    AuditTrail audit;

    @Inject
    MeshSecrets secrets;

    AgentClient agents = new AgentClient();

    /** Plans every node and sends each that differs from what it acknowledged, named or not (see {@link PushDecision}). */
    public PushReport push(List<String> named, boolean dryRun, boolean yes) {
        return push(named, dryRun, yes, null);
    }

    /** The same, for a take ({@code take}, null for none): its declarations name the take and its epoch. */
    public PushReport push(List<String> named, boolean dryRun, boolean yes, Take take) {
        return push(named, dryRun, yes, take, java.util.Set.of());
    }

    /**
     * The same, with the mesh modules the operator named to remove all the same ({@code forced},
     * {@link MeshModules#OVERRIDE}). A plan that drops one of the mesh's own modules that runs now is
     * refused before any agent is asked; a dry run says so in its notes instead.
     */
    public PushReport push(List<String> named, boolean dryRun, boolean yes, Take take, java.util.Set<String> forced) {
        try (PushLock lock = store.lockPushes()) {
            refuseWhileATakeStarts();
            MeshStore.PushSnapshot s = store.pushSnapshot();
            PushDecision.unknownNodes(named, s.nodes()).ifPresent(m -> {
                throw new NotFound(m);
            });
            List<PushInput.Module> catalogue = s.catalogue().stream()
                    .map(m -> new PushInput.Module(m, s.sources().get(m.module()))).toList();
            // resolved here, before planning, so the plan stays pure and every declaration is pinned
            BundlePins pins = BundleResolver.resolve(s.catalogue(), s.placements(),
                    MeshPlanner.registryUrl(s.nodes(), s.placements()));
            return planAndSend(new Input(s, catalogue, s.placements(), pins, List.of(), null), named, dryRun, yes, take, forced);
        }
    }

    /**
     * Input is what one push plans from: today's snapshot of the store, and the catalogue, placements and
     * pins to plan (the store's own for a push; a kept push's, restored, for a rollback, whose
     * {@code rollbackOf} names that push and whose {@code notes} lead the report).
     */
    record Input(MeshStore.PushSnapshot today, List<PushInput.Module> catalogue, List<Placement> placements, BundlePins pins,
                 List<String> notes, Long rollbackOf) {

        List<Manifest> manifests() {
            return catalogue.stream().map(PushInput.Module::manifest).toList();
        }
    }

    /**
     * Plans {@code in}, previews, judges and (unless a dry run) sends and records; the caller holds the
     * push lock. A plan that drops one of the mesh's own modules that runs now is refused before any
     * agent is asked; a dry run says so in its notes instead.
     */
    PushReport planAndSend(Input in, List<String> named, boolean dryRun, boolean yes, Take take,
                           java.util.Set<String> forced) {
        MeshStore.PushSnapshot s = in.today();
        // today's secrets, opened for this plan alone (a rollback too: values are not kept per push)
        MeshPlan plan = MeshPlanner.plan(in.manifests(), s.nodes(), in.placements(), in.pins(), secrets.values());
        Map<String, Declaration> acked = MeshModules.acked(s.sent());
        List<String> protect = MeshModules.push(acked, plan, MeshModuleGuard.addresses(s.nodes()),
                controller.storeUrl(), forced);
        if (!protect.isEmpty() && !dryRun) {
            throw new Conflict(String.join("; and ", protect));
        }
        List<PushDecision.Draft> drafts = PushDecision.drafts(plan, s.sent());
        Map<String, Object> held = ask(PushDecision.toAsk(drafts), PushDecision.Draft::node,
                d -> agents.statusQuickly(d.node()));
        PushDecision.Choice choice = PushDecision.choose(drafts, PushResults.generations(held), named);
        Map<String, Object> previews = ask(choice.targets(), PushDecision.Target::node,
                t -> agents.preview(t.node(), t.declaration()));
        PushDecision.Verdict verdict = PushDecision.judge(previews.values().stream()
                .filter(PlanView.class::isInstance).map(p -> PlanCounts.counted((PlanView) p)).toList(),
                controller.settings().pushBudget(), dryRun, yes);
        verdict.refusal().ifPresent(m -> {
            throw new Conflict(m);
        });
        List<String> notes = new ArrayList<>(in.notes());
        if (in.rollbackOf() != null) {
            notes.addAll(Rollback.dataNotes(acked, plan));
        }
        notes.addAll(choice.notes());
        protect.forEach(m -> notes.add("without --dry-run this push is refused: " + m));
        List<PushReport.NodeResult> results = dryRun ? PushResults.previewed(choice.targets(), previews)
                : send(in, plan, choice.targets(), notes, take);
        choice.unchanged().forEach(n -> results.add(new PushReport.NodeResult(n, PushReport.Outcome.UNCHANGED, 0, false, null, null)));
        return new PushReport(dryRun, verdict.replacements(), results, notes, verdict.removals(),
                PushReport.totals(results));
    }

    /**
     * Records the roster and each target's generation, sends, and records the answers. The
     * generation is recorded before sending, so it only grows even if this controller dies mid-push.
     */
    private List<PushReport.NodeResult> send(Input in, MeshPlan plan, List<PushDecision.Target> targets,
                                             List<String> notes, Take take) {
        PushOrigin origin = store.inTransaction(c -> {
            if (in.rollbackOf() != null) {
                PushInputs.restore(c, store, in.catalogue(), in.placements());
            }
            store.replaceRoster(c, List.copyOf(plan.roster().values()));
            Map<String, Long> sent = new LinkedHashMap<>();
            for (PushDecision.Target t : targets) {
                store.recordSent(c, t.node().name(), t.declaration().generation());
                sent.put(t.node().name(), t.declaration().generation());
            }
            if (sent.isEmpty() && in.rollbackOf() == null) {
                return null;
            }
            PushOrigin o = in.rollbackOf() != null
                    ? PushOrigin.of(audit.record(c, "rollback", AuditText.rollback(in.rollbackOf(), sent)), audit.who())
                    : recordPush(c, sent, take);
            PushInputs.keep(c, new PushInput(o.id(), in.catalogue(), in.placements(), in.today().nodes().stream()
                    .map(n -> new PushInput.PlannedNode(n.name(), n.publicDomain())).toList(), in.pins().pinned(),
                    in.rollbackOf()));
            return o;
        });
        Map<String, Object> answers = ask(targets, PushDecision.Target::node,
                t -> sendNamed(t.node(), t.declaration().withPush(origin)));
        List<PushReport.NodeResult> results = PushResults.sent(targets, answers);
        answers.values().stream().filter(String.class::isInstance).forEach(e -> LOG.warnf("push: %s", e));
        notes.addAll(PushResults.acceptedNotes(targets, answers));
        try {
            store.inTransaction(c -> {
                for (PushDecision.Target t : targets) {
                    String node = t.node().name();
                    if (answers.get(node) instanceof Accepted a) {
                        store.recordSent(c, node, a.generation());
                        store.recordAcked(c, node, a.generation(), t.content());
                    } else {
                        store.recordError(c, node, (String) answers.get(node));
                    }
                }
                return null;
            });
        } catch (StoreFailure e) {
            throw new StoreFailure("this push was sent (" + String.join(", ", results.stream()
                    .map(r -> r.node() + " " + r.outcome()).toList()) + ") but recording what the nodes acknowledged failed: "
                    + e.getMessage() + "; the next push sends them again", e);
        }
        return results;
    }

    /**
     * Records a push in the audit trail (in the transaction that records its generations) and
     * returns its name, which each declaration it sends carries (docs/trust.md, "Which push").
     */
    private PushOrigin recordPush(Connection c, Map<String, Long> sent, Take take) throws SQLException {
        if (take == null) {
            return PushOrigin.of(audit.record(c, "push", AuditText.push(sent)), audit.who());
        }
        return PushOrigin.ofTake(audit.record(c, "push", AuditText.push(sent, take.module(), take.epoch())), audit.who(),
                take.module(), take.epoch());
    }

    /**
     * Sends {@code d} to {@code node} for a take, outside a push (the target's start declaration, an
     * edge told first at the switch), recorded as a push records it: the generation and an audit row
     * naming the take before sending, the answer ({@code content} acknowledged) after. The caller holds
     * the push lock.
     */
    Accepted sendForTake(Take take, Node node, Declaration d, String content) {
        Declaration named = store.inTransaction(c -> {
            store.recordSent(c, d.node(), d.generation());
            return d.withPush(recordPush(c, Map.of(d.node(), d.generation()), take));
        });
        Accepted a = sendNamed(node, named);
        store.inTransaction(c -> {
            store.recordSent(c, node.name(), a.generation());
            store.recordAcked(c, node.name(), a.generation(), content);
            return null;
        });
        return a;
    }

    /**
     * Sends a declaration that names its push ({@link AgentClient#pushGrowing}); an agent older than
     * named pushes refuses the name, and gets the declaration again without it ({@link PushDecision#unnamed}).
     */
    private Accepted sendNamed(Node node, Declaration d) {
        try {
            return agents.pushGrowing(node, d);
        } catch (AgentClient.Unreachable refused) {
            Declaration unnamed = PushDecision.unnamed(d, refused.status(), refused.reason() != null).orElseThrow(() -> refused);
            LOG.infof("push: node %s's agent does not take named pushes (an older mesh); sent without the name", node.name());
            return agents.pushGrowing(node, unnamed);
        }
    }

    /**
     * Refuses while a take starts its module on the target: the target runs a declaration the store's
     * placements do not plan yet (docs/take.md), which a push would undo. The take's own pushes come
     * after its switch, or in its rollback, when the store plans the target right again.
     */
    private void refuseWhileATakeStarts() {
        store.inTransaction(c -> mesh.store.TakeRecords.running(c)).stream()
                .filter(t -> t.step() == mesh.plan.TakeStep.START).findFirst().ifPresent(t -> {
                    throw new Conflict("a take of module " + t.module() + " is starting it on " + t.to()
                            + "; push when it has switched ('mesh status' shows it)");
                });
    }

    /** Asks every one at once, by node name; each answer is the result, or the failure's message. */
    private static <T> Map<String, Object> ask(List<T> items, Function<T, Node> node, Function<T, Object> call) {
        Map<String, T> byNode = new LinkedHashMap<>();
        items.forEach(t -> byNode.put(node.apply(t).name(), t));
        return AgentClient.askAll(byNode, call);
    }
}
