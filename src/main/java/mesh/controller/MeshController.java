package mesh.controller;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import mesh.model.CatalogueCheck;
import mesh.model.Conflict;
import mesh.model.InvalidInput;
import mesh.model.Manifests;
import mesh.model.Node;
import mesh.model.NotFound;
import mesh.model.Placement;
import mesh.plan.JoinTokenRule;
import mesh.plan.MeshPlan;
import mesh.store.BackupRecords;
import mesh.store.MeshStore;
import mesh.wire.AddedNode;
import mesh.wire.CatalogueChange;
import mesh.wire.ManifestFile;
import mesh.wire.ModuleView;
import mesh.wire.ModuleDetail;
import mesh.wire.NodeToken;
import mesh.wire.NodeView;

/**
 * MeshController carries out the operator's verbs on nodes, the catalogue and placement, each in
 * one store transaction; checks come first, so a refused verb changes nothing. Push is
 * {@link MeshPush}, status {@link MeshStatus}.
 */
@ApplicationScoped
public class MeshController {

    @Inject
    MeshStore store;

    @Inject
    AuditTrail audit;

    @Inject
    mesh.store.AgentBuilds builds;

    @Inject
    HeardBuilds heardBuilds;

    @Inject
    OperatorTokens operatorTokens;

    private volatile ControllerSettings settings;

    /**
     * Migrates the store, claims this controller's epoch and stores the bootstrap operator token
     * (docs/trust.md); only then does it serve.
     */
    public void start(ControllerSettings settings) {
        store.migrate();
        store.claimEpoch(settings.epoch());
        operatorTokens.bootstrap(settings.token());
        this.settings = settings;
    }

    public boolean serving() {
        return settings != null;
    }

    public ControllerSettings settings() {
        return settings;
    }

    /** This controller's own store URL ({@code MESH_STORE_URL}); null before it serves. */
    String storeUrl() {
        return settings == null ? null : settings.storeUrl();
    }

    // nodes

    public AddedNode addNode(String name, String address, String agent) {
        return addNode(name, address, agent, true);
    }

    /**
     * Adds a node; with {@code joinToken} it gets a one-time join token for its installer's
     * {@code POST /v1/join}, shown this once (the store keeps its SHA-256 only); without, none (the
     * seat's own node, whose certificate the installer issues on the seat).
     */
    public AddedNode addNode(String name, String address, String agent, boolean joinToken) {
        List<String> problems = NodeInput.problems(name, address, agent);
        if (!problems.isEmpty()) {
            throw new InvalidInput(problems);
        }
        String url = agent == null || agent.isBlank() ? NodeInput.defaultAgent(address) : agent;
        String token = joinToken ? OperatorTokens.newToken() : null;
        return store.inTransaction(c -> {
            if (store.node(c, name).isPresent()) {
                throw new Conflict("node " + name + " already exists");
            }
            refuseShared(c, name, address, url);
            Node node = new Node(name, address, url, null);
            store.addNode(c, node);
            String expires = token == null ? null
                    : JoinTokenRule.expiry(store.setJoinToken(c, name, OperatorTokens.hash(token))).toString();
            audit.record(c, "node add", AuditText.nodeAdded(node, joinToken));
            return new AddedNode(name, address, url, token, expires);
        });
    }

    /**
     * Changes a node's address and/or agent URL. An agent URL that was the default for the old
     * address follows the address, unless a new one is given. Takes effect at the next push, which
     * replaces only the containers that bind one of the node's names (the planner scopes hosts to
     * binds) and the node's own containers that publish ports on its address.
     */
    public Node setNode(String name, String address, String agent) {
        if ((address == null || address.isBlank()) && (agent == null || agent.isBlank())) {
            throw new InvalidInput(List.of("node set: give --address ADDR, --agent URL or both"));
        }
        return store.inTransaction(c -> {
            Node node = existingNode(c, name);
            String nextAddress = address == null || address.isBlank() ? node.address() : address;
            List<String> problems = NodeInput.problems(name, nextAddress, agent);
            if (!problems.isEmpty()) {
                throw new InvalidInput(problems);
            }
            String nextAgent = agent != null && !agent.isBlank() ? agent
                    : node.agent().equals(NodeInput.defaultAgent(node.address())) ? NodeInput.defaultAgent(nextAddress)
                    : node.agent();
            refuseShared(c, name, nextAddress, nextAgent);
            store.setNode(c, name, nextAddress, nextAgent);
            Node next = new Node(name, nextAddress, nextAgent, node.publicDomain());
            audit.record(c, "node set", AuditText.nodeSet(node, next));
            return next;
        });
    }

    /**
     * Gives a node a new one-time join token and returns it, shown this once, for a (re-)join with
     * {@code mesh install --join} (docs/cli.md); the node's earlier join token, if unspent, no longer
     * works. The running agent is not concerned: it answers to the controller's certificate.
     */
    public NodeToken rotateToken(String name) {
        String token = OperatorTokens.newToken();
        return store.inTransaction(c -> {
            Node node = existingNode(c, name);
            java.time.Instant made = store.setJoinToken(c, name, OperatorTokens.hash(token));
            audit.record(c, "node token", AuditText.joinTokenMade(name));
            return new NodeToken(name, node.address(), token, JoinTokenRule.expiry(made).toString());
        });
    }

    /** Refuses an address or agent URL another node already has: two nodes cannot be one machine. */
    private void refuseShared(Connection c, String name, String address, String agent) throws SQLException {
        for (Node other : store.nodes(c)) {
            if (other.name().equals(name)) {
                continue;
            }
            if (other.address().equals(address)) {
                throw new Conflict("address " + address + " is already node " + other.name() + "'s");
            }
            if (other.agent().equals(agent)) {
                throw new Conflict("agent " + agent + " is already node " + other.name() + "'s");
            }
        }
    }

    public List<NodeView> nodes() {
        return store.inTransaction(this::nodes);
    }

    /** The nodes and where their pushes stand, read in the caller's transaction. */
    List<NodeView> nodes(Connection c) throws SQLException {
        Map<String, MeshStore.PushState> states = new LinkedHashMap<>();
        store.pushStates(c).forEach(s -> states.put(s.node(), s));
        Map<String, mesh.wire.Build> heard = builds.builds(c);
        java.util.Set<String> cordoned = mesh.store.NodeCordons.cordoned(c);
        return store.nodes(c).stream().map(n -> {
            MeshStore.PushState s = states.get(n.name());
            return new NodeView(n.name(), n.address(), n.agent(), n.publicDomain(),
                    s == null ? 0 : s.lastGeneration(), s == null ? 0 : s.ackedGeneration(),
                    s == null ? null : s.lastError(), heard.get(n.name()), cordoned.contains(n.name()));
        }).toList();
    }

    /** Cordons {@code name} ({@code mesh node cordon}) or lifts its cordon; the node as {@code node list} shows it. */
    public NodeView cordon(String name, boolean cordoned) {
        return store.inTransaction(c -> {
            existingNode(c, name);
            boolean before = mesh.store.NodeCordons.set(c, name, cordoned);
            if (before != cordoned) {
                audit.record(c, cordoned ? "node cordon" : "node uncordon", "node " + name + (cordoned
                        ? " cordoned: no new assignment, take or restore onto it" : ": cordon lifted"));
            }
            return nodes(c).stream().filter(n -> n.name().equals(name)).findFirst().orElseThrow();
        });
    }

    public Node publicDomain(String name, String domain) {
        if (domain == null || !NodeInput.isDomain(domain)) {
            throw new InvalidInput(List.of("public domain: not a domain name: '" + domain + "'"));
        }
        return store.inTransaction(c -> {
            Node node = existingNode(c, name);
            store.setPublicDomain(c, name, domain);
            audit.record(c, "node public-domain", AuditText.publicDomain(name, node.publicDomain(), domain));
            return new Node(node.name(), node.address(), node.agent(), domain);
        });
    }

    /**
     * Removes node {@code name}, which runs nothing. A node that holds a lost copy not fenced yet (a module restored
     * elsewhere while it was down, docs/backup.md) is kept unless {@code forgetLost}: the controller fences that copy the
     * moment the node answers, and a node removed would never be fenced, so it would run the module again if it came back
     * with its disk.
     */
    public void removeNode(String name, boolean forgetLost) {
        store.inTransaction(c -> {
            existingNode(c, name);
            MeshModuleGuard.nodeRemove(store, c, name);
            List<String> used = store.placements(c).stream()
                    .filter(p -> name.equals(p.assigned()) || name.equals(p.taken()))
                    .map(Placement::module).toList();
            if (!used.isEmpty()) {
                throw new Conflict("node " + name + " still has modules assigned or running: "
                        + String.join(", ", used) + "; unassign them first");
            }
            List<String> lost = List.copyOf(BackupRecords.unfencedByNode(c).getOrDefault(name, Collections.emptySortedSet()));
            if (!lost.isEmpty() && !forgetLost) {
                throw new Conflict("node " + name + " holds a copy of " + String.join(", ", lost) + " restored elsewhere while"
                        + " it was down, fenced there the moment its agent answers again; removed now, it would run "
                        + String.join(", ", lost) + " again if it came back with its disk. Let its agent answer once ('mesh"
                        + " audit' then says its lost copy was fenced), or, if its machine is gone for good or its disk wiped:"
                        + " 'mesh node remove " + name + " --forget-lost'; nothing was changed");
            }
            if (!lost.isEmpty()) {
                BackupRecords.forgetUnfenced(c, name);
            }
            store.removeNode(c, name);
            builds.forget(c, name);
            audit.record(c, "node remove", AuditText.nodeRemoved(name) + (lost.isEmpty() ? ""
                    : "; its lost copies of " + String.join(", ", lost) + " forgotten (--forget-lost: said gone for good)"));
            return null;
        });
        heardBuilds.forget(name);
    }

    // catalogue

    public CatalogueChange addCatalogue(List<ManifestFile> files) {
        if (files == null || files.isEmpty()) {
            throw new InvalidInput(List.of("no manifest given"));
        }
        List<String> problems = new ArrayList<>();
        List<CatalogueCheck.File> given = new ArrayList<>();
        for (ManifestFile f : files) {
            if (f == null || f.file() == null || f.yaml() == null) {
                problems.add("each manifest needs \"file\" and \"yaml\"; got " + (f == null ? "null" : f));
            } else {
                given.add(new CatalogueCheck.File(f.file(), f.yaml()));
            }
        }
        // the same check as `mesh catalogue check` runs offline
        CatalogueCheck.Result checked = given.isEmpty() ? null : CatalogueCheck.of(given);
        if (checked != null) {
            problems.addAll(checked.problems());
        }
        if (!problems.isEmpty()) {
            throw new InvalidInput(problems);
        }
        List<Manifests.Source> sources = checked.sources();
        return store.inTransaction(c -> {
            Map<MeshStore.ModuleChange, List<String>> changes = new java.util.EnumMap<>(MeshStore.ModuleChange.class);
            for (MeshStore.ModuleChange kind : MeshStore.ModuleChange.values()) {
                changes.put(kind, new ArrayList<>());
            }
            for (Manifests.Source s : sources) {
                changes.get(store.putModule(c, s.manifest(), s.file())).add(s.manifest().module());
            }
            CatalogueChange change = new CatalogueChange(changes.get(MeshStore.ModuleChange.ADDED),
                    changes.get(MeshStore.ModuleChange.UPDATED), changes.get(MeshStore.ModuleChange.UNCHANGED));
            audit.record(c, "catalogue add", AuditText.catalogue(change));
            return change;
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

    /** One module: its manifest as stored, where it came from, and where it is assigned and taken. */
    public ModuleDetail module(String module) {
        return store.inTransaction(c -> {
            MeshStore.StoredModule m = store.module(c, module).orElseThrow(() -> unknownModule(module));
            Placement p = store.placement(c, module);
            return new ModuleDetail(module, m.source(), m.addedAt().toString(), p.assigned(), p.taken(), m.manifest());
        });
    }

    /** Removes a module from the catalogue; refused while it is assigned or taken anywhere. */
    public void removeModule(String module) {
        store.inTransaction(c -> {
            existingModule(c, module);
            MeshModuleGuard.catalogueRemove(store, c, module);
            Placement p = store.placement(c, module);
            if (p.assigned() != null || p.taken() != null) {
                throw new Conflict("module " + module + " is still "
                        + (p.assigned() != null ? "assigned to " + p.assigned() : "")
                        + (p.assigned() != null && p.taken() != null ? " and " : "")
                        + (p.taken() != null ? "running on " + p.taken() : "")
                        + (p.assigned() != null ? "; 'mesh unassign " + p.assigned() + " " + module + "' first" : ""));
            }
            store.removeModule(c, module);
            audit.record(c, "catalogue remove", AuditText.moduleRemoved(module));
            return null;
        });
    }

    // placement

    /**
     * Assigns a module to a node. A module that runs nowhere runs where it is first assigned; one
     * that runs elsewhere keeps running there, with its names, until it is taken (docs/design.md, invariant 4).
     */
    public Placement assign(String node, String module) {
        return store.inTransaction(c -> {
            refuseSwapped(c, "assign", node, module);
            existingNode(c, node);
            existingModule(c, module);
            UnderWay.refuse(c, module, UnderWay.Verb.ASSIGN);
            Placement current = store.placement(c, module);
            CordonGuard.refuse(c, "assign", module, node, node.equals(current.assigned()));
            Placement next = new Placement(module, node, current.taken() == null ? node : current.taken());
            store.putPlacement(c, next);
            audit.record(c, "assign", AuditText.placement(current, next));
            return next;
        });
    }

    /** Unassigns a module from a node; if it runs there, it stops there (its volumes stay). */
    public Placement unassign(String node, String module) {
        return unassign(node, module, java.util.Set.of());
    }

    /**
     * The same; refused when it would stop one of the mesh's own modules there, unless {@code forced}
     * names it and it may go ({@link mesh.plan.MeshModules}).
     */
    public Placement unassign(String node, String module, java.util.Set<String> forced) {
        return store.inTransaction(c -> {
            refuseSwapped(c, "unassign", node, module);
            existingNode(c, node);
            existingModule(c, module);
            Placement current = store.placement(c, module);
            if (!node.equals(current.assigned())) {
                throw new Conflict("module " + module + " is not assigned to node " + node
                        + (current.assigned() == null ? " (it is assigned nowhere)" : " (it is assigned to " + current.assigned() + ")"));
            }
            UnderWay.refuse(c, module, UnderWay.Verb.UNASSIGN);
            MeshModuleGuard.unassign(store, c, node, module, storeUrl(), forced);
            Placement next = new Placement(module, null, node.equals(current.taken()) ? null : current.taken());
            store.putPlacement(c, next);
            audit.record(c, "unassign", AuditText.placement(current, next));
            return next;
        });
    }

    // roster

    public List<MeshPlan.RosterEntry> roster() {
        return store.inTransaction(store::roster);
    }

    /** A module given where the node belongs, and a node where the module does: say the right order. */
    private void refuseSwapped(Connection c, String verb, String node, String module) throws SQLException {
        if (store.node(c, node).isEmpty() && store.hasModule(c, node) && store.node(c, module).isPresent()) {
            throw new InvalidInput(List.of("the order is NODE MODULE: " + node + " is a module and " + module
                    + " a node; did you mean 'mesh " + verb + " " + module + " " + node + "'?"));
        }
    }

    private Node existingNode(Connection c, String name) throws SQLException {
        return store.node(c, name).orElseThrow(() -> new NotFound("unknown node " + name
                + "; 'mesh node list' shows the nodes"));
    }

    private void existingModule(Connection c, String module) throws SQLException {
        if (!store.hasModule(c, module)) {
            throw unknownModule(module);
        }
    }

    private static NotFound unknownModule(String module) {
        return new NotFound("unknown module " + module + "; 'mesh catalogue list' shows the modules");
    }

}
