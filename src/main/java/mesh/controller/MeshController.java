package mesh.controller;

import com.fasterxml.jackson.core.JsonProcessingException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import mesh.api.Refusal;
import mesh.model.ComponentSpec;
import mesh.model.Declaration;
import mesh.model.DeclarationJson;
import mesh.model.InvalidInput;
import mesh.model.Manifest;
import mesh.model.ManifestYaml;
import mesh.model.Node;
import mesh.model.Placement;
import mesh.plan.MeshPlan;
import mesh.plan.MeshPlanner;
import mesh.plan.PlanView;
import mesh.store.MeshStore;
import org.jboss.logging.Logger;

/**
 * MeshController carries out the operator's verbs, each in one store transaction:
 * snapshot → plan (pure) → push. Checks come first, so a refused verb changes nothing.
 */
@ApplicationScoped
public class MeshController {

    private static final Logger LOG = Logger.getLogger("mesh.controller");
    /** Tokens holds the random source apart, so that loading this bean (every verb does) loads no security provider. */
    private static final class Tokens {
        static final SecureRandom RANDOM = new SecureRandom();
    }

    @Inject
    MeshStore store;

    AgentClient agents = new AgentClient();

    private volatile ControllerSettings settings;

    public void start(ControllerSettings settings) {
        store.migrate();
        this.settings = settings;
    }

    public boolean serving() {
        return settings != null;
    }

    public ControllerSettings settings() {
        return settings;
    }

    // nodes

    /** AddedNode is the answer to {@code node add}: the only time the agent token is shown. */
    public record AddedNode(String name, String address, String agent, String token) {
    }

    /** NodeView is a node as {@code node list} shows it, with where its pushes stand. */
    public record NodeView(String name, String address, String agent, String publicDomain, long generation,
                           long ackedGeneration, String lastError) {
    }

    public AddedNode addNode(String name, String address, String agent) {
        List<String> problems = NodeInput.problems(name, address, agent);
        if (!problems.isEmpty()) {
            throw new InvalidInput(problems);
        }
        String url = agent == null || agent.isBlank() ? NodeInput.defaultAgent(address) : agent;
        String token = HexFormat.of().formatHex(randomBytes());
        return store.inTransaction(c -> {
            if (store.node(c, name).isPresent()) {
                throw new Refusal(409, "node " + name + " already exists");
            }
            store.addNode(c, new Node(name, address, url, null), token);
            return new AddedNode(name, address, url, token);
        });
    }

    private static byte[] randomBytes() {
        byte[] bytes = new byte[24];
        Tokens.RANDOM.nextBytes(bytes);
        return bytes;
    }

    public List<NodeView> nodes() {
        return store.inTransaction(c -> {
            Map<String, MeshStore.PushState> states = new LinkedHashMap<>();
            store.pushStates(c).forEach(s -> states.put(s.node(), s));
            return store.nodes(c).stream().map(n -> {
                MeshStore.PushState s = states.get(n.name());
                return new NodeView(n.name(), n.address(), n.agent(), n.publicDomain(),
                        s == null ? 0 : s.lastGeneration(), s == null ? 0 : s.ackedGeneration(),
                        s == null ? null : s.lastError());
            }).toList();
        });
    }

    public Node publicDomain(String name, String domain) {
        if (domain == null || !NodeInput.isDomain(domain)) {
            throw new InvalidInput(List.of("public domain: not a domain name: '" + domain + "'"));
        }
        return store.inTransaction(c -> {
            Node node = existingNode(c, name);
            store.setPublicDomain(c, name, domain);
            return new Node(node.name(), node.address(), node.agent(), domain);
        });
    }

    public void removeNode(String name) {
        store.inTransaction(c -> {
            existingNode(c, name);
            List<String> used = store.placements(c).stream()
                    .filter(p -> name.equals(p.assigned()) || name.equals(p.taken()))
                    .map(Placement::module).toList();
            if (!used.isEmpty()) {
                throw new Refusal(409, "node " + name + " still has modules assigned or running: "
                        + String.join(", ", used) + "; unassign them first");
            }
            store.removeNode(c, name);
            return null;
        });
    }

    // catalogue

    /** ManifestFile is one file of a {@code catalogue add}. */
    public record ManifestFile(String file, String yaml) {
    }

    /** CatalogueChange says which modules a {@code catalogue add} added and which it updated. */
    public record CatalogueChange(List<String> added, List<String> updated) {
    }

    /** ModuleView is a module as {@code catalogue list} shows it. */
    public record ModuleView(String module, List<String> components, List<String> routes, String assigned,
                             String taken) {
    }

    public CatalogueChange addCatalogue(List<ManifestFile> files) {
        if (files == null || files.isEmpty()) {
            throw new InvalidInput(List.of("no manifest given"));
        }
        List<String> problems = new ArrayList<>();
        List<Manifest> manifests = new ArrayList<>();
        Map<String, String> seen = new LinkedHashMap<>();
        for (ManifestFile f : files) {
            if (f == null || f.file() == null || f.yaml() == null) {
                problems.add("each manifest needs \"file\" and \"yaml\"; got " + (f == null ? "null" : f));
                continue;
            }
            try {
                Manifest m = ManifestYaml.parse(f.file(), f.yaml());
                String other = seen.putIfAbsent(m.module(), f.file());
                if (other != null) {
                    problems.add(f.file() + ": module " + m.module() + " is also defined in " + other);
                }
                manifests.add(m);
            } catch (InvalidInput e) {
                problems.addAll(e.problems());
            }
        }
        if (!problems.isEmpty()) {
            throw new InvalidInput(problems);
        }
        return store.inTransaction(c -> {
            List<String> added = new ArrayList<>();
            List<String> updated = new ArrayList<>();
            for (int i = 0; i < manifests.size(); i++) {
                (store.putModule(c, manifests.get(i), files.get(i).file()) ? added : updated).add(manifests.get(i).module());
            }
            return new CatalogueChange(added, updated);
        });
    }

    public List<ModuleView> catalogue() {
        return store.inTransaction(c -> {
            Map<String, Placement> placements = new LinkedHashMap<>();
            store.placements(c).forEach(p -> placements.put(p.module(), p));
            return store.catalogue(c).stream().map(m -> {
                Placement p = placements.get(m.module());
                return new ModuleView(m.module(), List.copyOf(m.components().keySet()), List.copyOf(m.routes().keySet()),
                        p == null ? null : p.assigned(), p == null ? null : p.taken());
            }).toList();
        });
    }

    // placement

    /**
     * Assigns a module to a node. A module that runs nowhere runs where it is first assigned; one
     * that runs elsewhere keeps running there, with its names, until it is taken (invariant 4).
     */
    public Placement assign(String node, String module) {
        return store.inTransaction(c -> {
            existingNode(c, node);
            existingModule(c, module);
            Placement current = placement(c, module);
            Placement next = new Placement(module, node, current.taken() == null ? node : current.taken());
            store.putPlacement(c, next);
            return next;
        });
    }

    /** Unassigns a module from a node; if it runs there, it stops there (its volumes stay). */
    public Placement unassign(String node, String module) {
        return store.inTransaction(c -> {
            existingNode(c, node);
            existingModule(c, module);
            Placement current = placement(c, module);
            if (!node.equals(current.assigned())) {
                throw new Refusal(409, "module " + module + " is not assigned to node " + node
                        + (current.assigned() == null ? " (it is assigned nowhere)" : " (it is assigned to " + current.assigned() + ")"));
            }
            Placement next = new Placement(module, null, node.equals(current.taken()) ? null : current.taken());
            store.putPlacement(c, next);
            return next;
        });
    }

    // roster

    public List<MeshPlan.RosterEntry> roster() {
        return store.inTransaction(store::roster);
    }

    // push

    /**
     * Plans every node and sends each node whose declaration differs from what it last
     * acknowledged, named or not. A plan failure sends nothing; an unreachable node is reported as
     * behind and the others still get theirs. Pushes are serialised by an advisory lock.
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
            if (!leftBehind.isEmpty()) {
                notes.add("this push left " + String.join(", ", leftBehind.stream().map(t -> t.node().name()).toList())
                        + " behind: their declarations differ from what they acknowledged; sending them too");
            }
            Map<String, Object> previews = ask(targets, t -> agents.preview(t.node(), t.token(), t.declaration()));
            int replacements = previews.values().stream()
                    .mapToInt(p -> p instanceof PlanView v ? v.replace().size() : 0).sum();
            if (!dryRun && !yes && replacements > settings.pushBudget()) {
                throw new Refusal(409, "this push would replace " + replacements + " containers, more than the budget of "
                        + settings.pushBudget() + "; look with 'mesh push --dry-run', then run again with --yes");
            }
            List<PushReport.NodeResult> results = new ArrayList<>();
            if (dryRun) {
                for (Target t : targets) {
                    Object p = previews.get(t.node().name());
                    results.add(new PushReport.NodeResult(t.node().name(), p instanceof PlanView ? "would-send" : "behind",
                            t.declaration().generation(), leftBehind.contains(t), p instanceof PlanView v ? v : null,
                            p instanceof String s ? s : null));
                }
            } else {
                store.replaceRoster(c, List.copyOf(plan.roster().values()));
                Map<String, Object> sent = ask(targets, this::send);
                for (Target t : targets) {
                    String name = t.node().name();
                    store.recordSent(c, name, t.declaration().generation());
                    Object answer = sent.get(name);
                    if (answer instanceof AgentClient.Accepted a) {
                        store.recordSent(c, name, a.generation());
                        store.recordAcked(c, name, a.generation(), t.content());
                        results.add(new PushReport.NodeResult(name, "sent", a.generation(), leftBehind.contains(t),
                                a.plan(), null));
                    } else {
                        store.recordError(c, name, (String) answer);
                        results.add(new PushReport.NodeResult(name, "behind", t.declaration().generation(), leftBehind.contains(t),
                                null, (String) answer));
                        LOG.warnf("push: %s", answer);
                    }
                }
            }
            for (Node n : nodes.values()) {
                if (targets.stream().noneMatch(t -> t.node().equals(n))) {
                    results.add(new PushReport.NodeResult(n.name(), "unchanged", 0, false, null, null));
                }
            }
            return new PushReport(dryRun, replacements, results, notes);
        });
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
            long newest = agents.lastAccepted(t.node(), t.token());
            if (newest < t.declaration().generation()) {
                throw refused;
            }
            Declaration d = t.declaration();
            LOG.infof("push: node %s has accepted generation %d, which this store does not know of; sending as %d",
                    t.node().name(), newest, newest + 1);
            return agents.push(t.node(), t.token(), new Declaration(d.node(), d.address(), newest + 1, d.components()));
        }
    }

    /** Target is a node whose planned declaration differs from the one it last acknowledged. */
    record Target(Node node, String token, Declaration declaration, String content) {
    }

    /**
     * The nodes to send: each whose planned declaration differs from the one it acknowledged, and
     * each whose agent, asked now, holds an older generation than it acknowledged (its records were
     * lost: a new disk, a wiped state directory), which the store alone cannot know. An agent that
     * does not answer that question is left as it is: the question must not fail a push.
     */
    private List<Target> targets(Connection c, Map<String, Node> nodes, MeshPlan plan, List<String> notes)
            throws SQLException {
        List<Target> targets = new ArrayList<>();
        List<Target> acknowledged = new ArrayList<>();
        Map<String, Long> ackedGeneration = new LinkedHashMap<>();
        for (MeshStore.PushState s : store.pushStates(c)) {
            Node node = nodes.get(s.node());
            List<ComponentSpec> components = plan.nodes().getOrDefault(s.node(), List.of());
            String content = DeclarationJson.write(new Declaration(node.name(), node.address(), 0, components));
            Target t = new Target(node, store.agentToken(c, node.name()),
                    new Declaration(node.name(), node.address(), s.lastGeneration() + 1, components), content);
            if (s.ackedGeneration() > 0 && sameJson(content, s.ackedDeclaration())) {
                acknowledged.add(t);
                ackedGeneration.put(node.name(), s.ackedGeneration());
            } else {
                targets.add(t);
            }
        }
        Map<String, Object> held = ask(acknowledged, t -> agents.lastAcceptedQuickly(t.node(), t.token()));
        for (Target t : acknowledged) {
            long acked = ackedGeneration.get(t.node().name());
            if (held.get(t.node().name()) instanceof Long g && g < acked) {
                notes.add("node " + t.node().name() + "'s agent holds generation " + g + ", older than the "
                        + acked + " it acknowledged (its records were lost?): sending its declaration again");
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
    private static Map<String, Object> ask(List<Target> targets, java.util.function.Function<Target, Object> call) {
        Map<String, Target> byNode = new LinkedHashMap<>();
        targets.forEach(t -> byNode.put(t.node().name(), t));
        return AgentClient.askAll(byNode, call);
    }

    private Node existingNode(Connection c, String name) throws SQLException {
        return store.node(c, name).orElseThrow(() -> new Refusal(404, "unknown node " + name
                + "; 'mesh node list' shows the nodes"));
    }

    private void existingModule(Connection c, String module) throws SQLException {
        if (store.catalogue(c).stream().noneMatch(m -> m.module().equals(module))) {
            throw new Refusal(404, "unknown module " + module + "; 'mesh catalogue list' shows the modules");
        }
    }

    private Placement placement(Connection c, String module) throws SQLException {
        return store.placements(c).stream().filter(p -> p.module().equals(module)).findFirst()
                .orElse(new Placement(module, null, null));
    }
}
