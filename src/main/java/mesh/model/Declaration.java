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
 */
public record Declaration(String node, String address, long generation, List<ComponentSpec> components,
                          String registry) {

    /** A declaration without processes (no artifact store needed). */
    public Declaration(String node, String address, long generation, List<ComponentSpec> components) {
        this(node, address, generation, components, null);
    }

    public Declaration {
        components = components == null ? List.of() : List.copyOf(components);
    }

    public Optional<ComponentSpec> component(String name) {
        return components.stream().filter(c -> c.name().equals(name)).findFirst();
    }
}
