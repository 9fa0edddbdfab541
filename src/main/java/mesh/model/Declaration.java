package mesh.model;

import java.util.List;
import java.util.Optional;

/**
 * Declaration is what a node must run at one generation: the full spec of every component, each
 * carrying only the roster entries for the names it binds (docs/design.md, invariant 2). The host agent
 * keeps every declaration it accepts, so "what changed between the last two passes" is answerable
 * on the machine itself (invariant 6).
 *
 * @param node       the node this declaration is for; an agent refuses one meant for another node
 * @param address    the node's mesh address, where ports are published; null publishes on all addresses
 * @param generation grows with every push to this node; an agent refuses one not newer than the last
 * @param registry   the artifact store (module mesh-registry) the agent fetches bundles from, e.g.
 *                   {@code http://10.77.0.11:5000}; set when a component is a process, else null
 * @param edge       the routes this node's edge serves; null on a node that is no edge
 * @param push       which push sent it ({@link PushOrigin}); null from a file, or from a controller
 *                   that does not name its pushes. Not part of any digest or compared content
 */
public record Declaration(String node, String address, long generation, List<ComponentSpec> components,
                          String registry, EdgeTable edge, PushOrigin push) {

    public Declaration {
        components = components == null ? List.of() : List.copyOf(components);
    }

    /** A declaration that names no push. */
    public Declaration(String node, String address, long generation, List<ComponentSpec> components,
                       String registry, EdgeTable edge) {
        this(node, address, generation, components, registry, edge, null);
    }

    /** A declaration of containers only, and no edge. */
    public Declaration(String node, String address, long generation, List<ComponentSpec> components) {
        this(node, address, generation, components, null, null);
    }

    /** A declaration with processes (fetched from {@code registry}), and no edge. */
    public Declaration(String node, String address, long generation, List<ComponentSpec> components, String registry) {
        this(node, address, generation, components, registry, null);
    }

    /** A declaration of containers only, for an edge node. */
    public Declaration(String node, String address, long generation, List<ComponentSpec> components, EdgeTable edge) {
        this(node, address, generation, components, null, edge);
    }

    /** This declaration as sent by {@code origin} (null: naming no push). */
    public Declaration withPush(PushOrigin origin) {
        return new Declaration(node, address, generation, components, registry, edge, origin);
    }

    /**
     * This declaration as the store keeps what a node acknowledged and as every view shows it: each
     * secret's reference (name, version, keyed hash) without its value (docs/trust.md, "Secrets").
     */
    public Declaration withoutSecretValues() {
        return new Declaration(node, address, generation, components.stream().map(ComponentSpec::withoutSecretValues).toList(),
                registry, edge, push);
    }

    public Optional<ComponentSpec> component(String name) {
        return components.stream().filter(c -> c.name().equals(name)).findFirst();
    }
}
