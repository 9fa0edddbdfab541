package mesh.controller;

import mesh.wire.CallFailure;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import mesh.model.Declaration;
import mesh.model.Node;
import mesh.model.PushOrigin;
import mesh.plan.LostCopyGuard;
import mesh.plan.MeshPlan;
import mesh.plan.PushDecision;
import mesh.plan.PushInput;
import mesh.plan.Take;
import mesh.plan.TakeSends;
import mesh.store.BackupRecords;
import mesh.store.MeshStore;
import mesh.store.PushInputs;
import mesh.store.StoreFailure;
import mesh.wire.Accepted;
import mesh.wire.PushReport;
import org.jboss.logging.Logger;

/**
 * PushSender sends what a push (or a take, outside a push) decided to send, and records it: the generation
 * before sending, so it only grows even if this controller dies mid-push; the push's name in the audit trail,
 * which each declaration carries (docs/trust.md, "Which push"); the answers after. No store transaction is
 * open while an agent is asked. The caller holds the push lock.
 */
@ApplicationScoped
public class PushSender {

    private static final Logger LOG = Logger.getLogger("mesh.controller");

    @Inject
    MeshStore store;

    @Inject
    AuditTrail audit;

    @Inject
    AgentClient agents;

    @Inject
    PushTimes times;

    /** Records the roster and each target's generation (and a rollback's restored input), sends, and records the answers, timed. */
    List<PushReport.NodeResult> send(PushPlanInput in, MeshPlan plan, List<PushDecision.Target> targets, List<String> notes,
                                     Take take) {
        long began = System.nanoTime();
        try {
            return sendNow(in, plan, targets, notes, take);
        } finally {
            times.pushed(System.nanoTime() - began);
        }
    }

    private List<PushReport.NodeResult> sendNow(PushPlanInput in, MeshPlan plan, List<PushDecision.Target> targets,
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
        Map<String, SortedSet<String>> lost = store.inTransaction(BackupRecords::unfencedByNode);   // once a push
        Map<String, AgentAnswer<Accepted>> answers = AgentClient.ask(targets, PushDecision.Target::node,
                t -> sendNamed(t.node(), t.declaration().withPush(origin), lost));
        List<PushReport.NodeResult> results = PushResults.sent(targets, answers);
        answers.values().stream().filter(a -> !a.ok()).forEach(a -> LOG.warnf("push: %s", a.failure()));
        notes.addAll(PushResults.acceptedNotes(targets, answers));
        try {
            store.inTransaction(c -> {
                for (PushDecision.Target t : targets) {
                    String node = t.node().name();
                    AgentAnswer<Accepted> a = answers.get(node);
                    if (a.ok()) {
                        store.recordSent(c, node, a.value().generation());
                        store.recordAcked(c, node, a.value().generation(), t.content());
                    } else {
                        store.recordError(c, node, a.failure());
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
     * Sends what a take decided to send outside a push ({@link TakeSends}: the target's start declaration, an
     * edge told first at the switch), recorded as a push records it: the generation and an audit row naming the
     * take before sending, the answer ({@code content} acknowledged) after. The caller holds the push lock.
     */
    Accepted sendForTake(Take take, TakeSends.Send s) {
        Declaration d = s.declaration();
        Declaration named = store.inTransaction(c -> {
            store.recordSent(c, d.node(), d.generation());
            return d.withPush(recordPush(c, Map.of(d.node(), d.generation()), take));
        });
        Accepted a = sendNamed(s.node(), named, store.inTransaction(BackupRecords::unfencedByNode));
        store.inTransaction(c -> {
            store.recordSent(c, s.node().name(), a.generation());
            store.recordAcked(c, s.node().name(), a.generation(), s.content());
            return null;
        });
        return a;
    }

    /** Records a push in the audit trail (in the transaction that records its generations) and returns its name. */
    private PushOrigin recordPush(Connection c, Map<String, Long> sent, Take take) throws SQLException {
        if (take == null) {
            return PushOrigin.of(audit.record(c, "push", AuditText.push(sent)), audit.who());
        }
        return PushOrigin.ofTake(audit.record(c, "push", AuditText.push(sent, take.module(), take.epoch())), audit.who(),
                take.module(), take.epoch());
    }

    /**
     * Sends a declaration that names its push ({@link AgentClient#pushGrowing}); an agent older than
     * named pushes refuses the name, and gets the declaration again without it ({@link PushDecision#unnamed}).
     * Never one that runs a module to a node holding an unfenced lost copy of it ({@code lost}, by node: {@link
     * LostCopyGuard}).
     */
    private Accepted sendNamed(Node node, Declaration d, Map<String, SortedSet<String>> lost) {
        String refusal = LostCopyGuard.refusal(d, lost.getOrDefault(node.name(), Collections.emptySortedSet()));
        if (refusal != null) {
            throw CallFailure.refused(409, null, refusal);
        }
        try {
            return agents.pushGrowing(node, d);
        } catch (CallFailure refused) {
            Declaration unnamed = PushDecision.unnamed(d, refused.status(), refused.reason() != null).orElseThrow(() -> refused);
            LOG.infof("push: node %s's agent does not take named pushes (an older mesh); sent without the name", node.name());
            return agents.pushGrowing(node, unnamed);
        }
    }
}
