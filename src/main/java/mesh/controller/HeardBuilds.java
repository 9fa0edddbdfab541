package mesh.controller;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import mesh.store.AgentBuilds;
import mesh.store.MeshStore;
import mesh.wire.Build;
import mesh.wire.HostStatus;
import org.jboss.logging.Logger;

/**
 * HeardBuilds keeps the build each agent reports in the statuses the controller asks for anyway ({@code mesh
 * status}, a push), so {@code mesh node list} shows every node's without asking each agent. Noting is an
 * observation beside the verb: a store that cannot take it is logged, never the verb's failure. The store is
 * written only when an agent reports a build this controller has not yet noted for it (a push or a status
 * otherwise costs no transaction): a fleet changes builds rarely.
 */
@ApplicationScoped
public class HeardBuilds {

    private static final Logger LOG = Logger.getLogger("mesh.controller");

    @Inject
    MeshStore store;

    @Inject
    AgentBuilds builds;

    /** What this controller wrote (or found written) last, by node. */
    private final Map<String, Build> noted = new ConcurrentHashMap<>();

    /** Notes the build of every agent that answered (by node); an agent older than builds names none. */
    void note(Map<String, AgentAnswer<HostStatus>> answers) {
        Map<String, Build> heard = new LinkedHashMap<>();
        answers.forEach((node, a) -> {
            if (a.ok() && a.value().build() != null && !a.value().build().equals(noted.get(node))) {
                heard.put(node, a.value().build());
            }
        });
        if (heard.isEmpty()) {
            return;
        }
        try {
            store.inTransaction(c -> {
                builds.heard(c, heard);
                return null;
            });
            noted.putAll(heard);
        } catch (RuntimeException e) {
            LOG.warnf("could not note the agents' builds %s: %s", heard.keySet(), e.getMessage());
        }
    }

    /** A removed node's build is written again when a node of its name is heard. */
    void forget(String node) {
        noted.remove(node);
    }
}
