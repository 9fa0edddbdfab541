package mesh.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * ManifestCheck lists what is wrong with one manifest on its own; what needs the whole mesh (a
 * bound name nobody serves, two modules claiming one route) is the planner's to find.
 */
public final class ManifestCheck {

    private ManifestCheck() {
    }

    public static List<String> problems(Manifest m) {
        List<String> problems = new ArrayList<>();
        if (m.module() == null || !DeclarationCheck.NAME.matcher(m.module()).matches()) {
            problems.add("module: must be a name of letters, digits, '.', '_' or '-'");
        }
        if (m.components().isEmpty()) {
            problems.add("components: a module needs at least one component");
        }
        for (Map.Entry<String, Manifest.Component> e : m.components().entrySet()) {
            String where = "component " + e.getKey() + ": ";
            Manifest.Component c = e.getValue();
            if (c == null) {
                problems.add(where + "is empty");
                continue;
            }
            if (!DeclarationCheck.NAME.matcher(e.getKey()).matches()) {
                problems.add(where + "name: must be letters, digits, '.', '_' or '-'");
            }
            if (c.bundle() != null) {
                problems.add(where + "bundle: process components are not supported yet; use image");
            } else if (c.image() == null || c.image().isBlank()) {
                problems.add(where + "image: is required");
            }
            for (String bind : c.binds()) {
                if (bind == null || !DeclarationCheck.HOSTNAME.matcher(bind).matches()) {
                    problems.add(where + "binds: not a host name: '" + bind + "'");
                }
            }
            for (String dep : c.after()) {
                if (!m.components().containsKey(dep)) {
                    problems.add(where + "after: '" + dep + "' is not a component of module " + m.module());
                }
            }
        }
        for (Map.Entry<String, Manifest.Route> r : m.routes().entrySet()) {
            String where = "route " + r.getKey() + ": ";
            if (!DeclarationCheck.HOSTNAME.matcher(r.getKey()).matches() || r.getKey().contains(".")) {
                problems.add(where + "name: must be one DNS label");
            }
            Manifest.Route route = r.getValue();
            if (route == null || route.component() == null || !m.components().containsKey(route.component())) {
                problems.add(where + "component: must name a component of module " + m.module());
            }
            if (route != null && (route.port() == null || route.port() < 1 || route.port() > 65535)) {
                problems.add(where + "port: must be 1-65535");
            }
        }
        if (problems.isEmpty()) {
            // the container-level rules (ports, volumes, env, health, after cycles) are the declaration's
            Declaration trial = new Declaration("catalogue", null, 1, m.components().entrySet().stream()
                    .map(e -> Manifests.spec(m, e.getKey(), Map.of())).toList());
            // said in the manifest's words: stop-timeout, not the declaration's stopTimeoutSeconds
            DeclarationCheck.problems(trial).forEach(p -> problems.add(p
                    .replaceAll("stopTimeoutSeconds: must be 0 to (\\d+), got (-?\\d+)", "stop-timeout: must be at most $1s, got $2s")));
        }
        return problems;
    }
}
