package mesh.controller;

import com.fasterxml.jackson.core.JsonProcessingException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import mesh.api.Refusal;
import mesh.host.HostStatus;
import mesh.model.ComponentSpec;
import mesh.model.Declaration;
import mesh.model.DeclarationJson;
import mesh.model.Node;
import mesh.plan.MeshPlan;
import mesh.plan.MeshPlanner;
import mesh.plan.PlanView;
import mesh.store.MeshStore;
import org.jboss.logging.Logger;

/**
 * MeshPush is {@code mesh push}: plan every node, preview on each host what would change, hold to
 * the replacement budget, send, and record what each node acknowledged. One store transaction under
 * an advisory lock, so pushes are serialised and generations per node only grow.
 */
@ApplicationScoped
public class MeshPush {

    private static final Logger LOG = Logger.getLogger("mesh.controller");

    @Inject
    MeshStore store;

    @Inject
    MeshController controller;

    AgentClient agents = new AgentClient();

    /** Target is a node to send, with the declaration planned for it and why it is sent. */
    record Target(Node node, String token, Declaration declaration, String content, Reason reason) {
    }

    /** Why a node is sent: its plan changed, or its agent holds another generation than it acknowledged. */
    enum Reason { CHANGED, RESYNC }

    /**
     * Plans every node and sends each node whose declaration differs from what it last
     * acknowledged, named or not. A plan failure sends nothing; an unreachable node is reported as
     * behind and the others still get theirs.
     */
    public PushReport push(List<String> named, boolean dryRun, boolean yes) {
        return store.inTransaction(c -> {
            store.lockPushes(c);
            Map<String, Node> nodes = new LinkedHashMap<>();
            store.nodes(c).forEach(n -> nodes.put(n.name(), n));
            List<String> unknown = named.stream().filter(n -> !nodes.containsKey(n)).toList();
            if (!unknown.isEmpty()) {
                throw new Refusal(404, "unknown node" + (unknown.size() > 1 ? "s " : " ") + String.join(", ", unknown));
            }
            MeshPlan plan = MeshPlanner.plan(store.catalogue(c), List.copyOf(nodes.values()), store.placements(c));
            List<String> notes = new ArrayList<>();
            List<Target> targets = targets(c, nodes, plan, notes);
            List<Target> leftBehind = named.isEmpty() ? List.of()
                    : targets.stream().filter(t -> !named.contains(t.node().name())).toList();
            List<String> changedBehind = leftBehind.stream().filter(t -> t.reason() == Reason.CHANGED)
                    .map(t -> t.node().name()).toList();
            if (!changedBehind.isEmpty()) {
                notes.add("this push left " + String.join(", ", changedBehind)
                        + " behind: their declarations differ from what they acknowledged; sending them too");
            }
            Map<String, Object> previews = ask(targets, t -> agents.preview(t.node(), t.token(), t.declaration()));
            int replacements = previews.values().stream()
                    .mapToInt(p -> p instanceof PlanView v ? v.replace().size() : 0).sum();
            int budget = controller.settings().pushBudget();
            if (!dryRun && !yes && replacements > budget) {
                throw new Refusal(409, "this push would replace " + replacements + " containers, more than the budget of "
                        + budget + "; look with 'mesh push --dry-run', then run again with --yes");
            }
            List<PushReport.NodeResult> results = dryRun ? preview(targets, previews, leftBehind)
                    : send(c, plan, targets, leftBehind, notes);
            for (Node n : nodes.values()) {
                if (targets.stream().noneMatch(t -> t.node().equals(n))) {
                    results.add(new PushReport.NodeResult(n.name(), "unchanged", 0, false, null, null));
                }
            }
            return new PushReport(dryRun, replacements, results, notes);
        });
    }

    private static List<PushReport.NodeResult> preview(List<Target> targets, Map<String, Object> previews,
                                                       List<Target> leftBehind) {
        List<PushReport.NodeResult> results = new ArrayList<>();
        for (Target t : targets) {
            Object p = previews.get(t.node().name());
            results.add(new PushReport.NodeResult(t.node().name(), p instanceof PlanView ? "would-send" : "behind",
                    t.declaration().generation(), leftBehind.contains(t), p instanceof PlanView v ? v : null,
                    p instanceof String s ? s : null));
        }
        return results;
    }

    private List<PushReport.NodeResult> send(Connection c, MeshPlan plan, List<Target> targets, List<Target> leftBehind,
                                             List<String> notes) throws SQLException {
        store.replaceRoster(c, List.copyOf(plan.roster().values()));
        Map<String, Object> sent = ask(targets, this::send);
        List<PushReport.NodeResult> results = new ArrayList<>();
        for (Target t : targets) {
            String name = t.node().name();
            Object answer = sent.get(name);
            if (answer instanceof AgentClient.Accepted a) {
                if (a.generation() != t.declaration().generation()) {
                    notes.add("node " + name + " had accepted generation " + (a.generation() - 1)
                            + ", which the store did not record; sent as " + a.generation());
                }
                store.recordSent(c, name, Math.max(a.generation(), t.declaration().generation()));
                store.recordAcked(c, name, a.generation(), t.content());
                results.add(new PushReport.NodeResult(name, "sent", a.generation(), leftBehind.contains(t), a.plan(), null));
            } else {
                store.recordSent(c, name, t.declaration().generation());
                store.recordError(c, name, (String) answer);
                results.add(new PushReport.NodeResult(name, "behind", t.declaration().generation(), leftBehind.contains(t),
                        null, (String) answer));
                LOG.warnf("push: %s", answer);
            }
        }
        return results;
    }

    /**
     * Sends a target its declaration. An agent that refuses the generation as not newer (409) has
     * accepted one this store does not know of: a push whose transaction never committed (the
     * controller died after sending), or a store restored from a backup. Generations only grow, so
     * the declaration is sent once more, numbered after the agent's newest; the agent's records keep
     * what it had.
     */
    private AgentClient.Accepted send(Target t) {
        try {
            return agents.push(t.node(), t.token(), t.declaration());
        } catch (AgentClient.Unreachable refused) {
            if (refused.status() != 409) {
                throw refused;
            }
            long newest;
            try {
                newest = agents.status(t.node(), t.token()).generation();
            } catch (AgentClient.Unreachable unread) {
                throw new AgentClient.Unreachable(refused.getMessage() + "; and its generation could not be read: "
                        + unread.getMessage(), refused.status());
            }
            if (newest < t.declaration().generation()) {
                throw refused;
            }
            Declaration d = t.declaration();
            LOG.infof("push: node %s has accepted generation %d, which this store does not know of; sending as %d",
                    t.node().name(), newest, newest + 1);
            return agents.push(t.node(), t.token(), new Declaration(d.node(), d.address(), newest + 1, d.components()));
        }
    }

    /**
     * The nodes to send: each whose planned declaration differs from the one it acknowledged, and
     * each whose agent, asked now, holds another generation than the one it acknowledged, which the
     * store alone cannot know: older (its records were lost: a new disk, a wiped state directory) or
     * newer (a push whose commit was lost, a store restored from a backup; it may run something the
     * store never recorded). An agent that does not answer that question is left as it is: the
     * question must not fail a push.
     */
    private List<Target> targets(Connection c, Map<String, Node> nodes, MeshPlan plan, List<String> notes)
            throws SQLException {
        List<Target> targets = new ArrayList<>();
        List<Target> acknowledged = new ArrayList<>();
        Map<String, Long> ackedGeneration = new LinkedHashMap<>();
        Map<String, String> tokens = store.agentTokens(c);
        for (MeshStore.PushState s : store.pushStates(c)) {
            Node node = nodes.get(s.node());
            List<ComponentSpec> components = plan.nodes().getOrDefault(s.node(), List.of());
            String content = DeclarationJson.write(new Declaration(node.name(), node.address(), 0, components));
            Declaration next = new Declaration(node.name(), node.address(), s.lastGeneration() + 1, components);
            String token = tokens.get(node.name());
            if (s.ackedGeneration() > 0 && sameJson(content, s.ackedDeclaration())) {
                acknowledged.add(new Target(node, token, next, content, Reason.RESYNC));
                ackedGeneration.put(node.name(), s.ackedGeneration());
            } else {
                targets.add(new Target(node, token, next, content, Reason.CHANGED));
            }
        }
        Map<String, Object> held = ask(acknowledged, t -> agents.statusQuickly(t.node(), t.token()));
        for (Target t : acknowledged) {
            long acked = ackedGeneration.get(t.node().name());
            if (held.get(t.node().name()) instanceof HostStatus agent && agent.generation() != acked) {
                long g = agent.generation();
                notes.add("node " + t.node().name() + "'s agent holds generation " + g + ", "
                        + (g < acked ? "older than the " + acked + " it acknowledged (its records were lost?)"
                                : "newer than the " + acked + " it acknowledged (a lost commit or a restored store?)")
                        + ": sending its declaration again");
                targets.add(t);
            }
        }
        return targets;
    }

    private static boolean sameJson(String a, String b) {
        try {
            return b != null && DeclarationJson.MAPPER.readTree(a).equals(DeclarationJson.MAPPER.readTree(b));
        } catch (JsonProcessingException e) {
            return false;
        }
    }

    /** Asks every target at once; each answer is the result, or the failure's message. */
    private static Map<String, Object> ask(List<Target> targets, Function<Target, Object> call) {
        Map<String, Target> byNode = new LinkedHashMap<>();
        targets.forEach(t -> byNode.put(t.node().name(), t));
        return AgentClient.askAll(byNode, call);
    }
}
