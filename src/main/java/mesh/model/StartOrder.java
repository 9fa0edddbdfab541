package mesh.model;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * StartOrder checks the {@code after} relation of one node's components: every name it refers to
 * is a component of the same declaration, and there is no cycle (a cycle would start nothing).
 */
public final class StartOrder {

    private StartOrder() {
    }

    public static List<String> problems(List<ComponentSpec> components) {
        Map<String, ComponentSpec> byName = new HashMap<>();
        components.stream().filter(c -> c != null && c.name() != null).forEach(c -> byName.putIfAbsent(c.name(), c));
        List<String> problems = new ArrayList<>();
        for (ComponentSpec c : byName.values()) {
            for (String dep : c.after()) {
                if (!byName.containsKey(dep)) {
                    problems.add("component " + c.name() + ": after: '" + dep + "' is not a component of this declaration");
                } else if (dep.equals(c.name())) {
                    problems.add("component " + c.name() + ": after: names itself");
                }
            }
        }
        if (problems.isEmpty()) {
            cycle(byName).ifPresent(cycle -> problems.add("after: components wait on each other in a cycle: "
                    + String.join(" -> ", cycle)));
        }
        return problems;
    }

    private static java.util.Optional<List<String>> cycle(Map<String, ComponentSpec> byName) {
        Set<String> done = new java.util.HashSet<>();
        for (String start : new java.util.TreeSet<>(byName.keySet())) {
            LinkedHashSet<String> path = new LinkedHashSet<>();
            List<String> found = visit(start, byName, path, done);
            if (found != null) {
                return java.util.Optional.of(found);
            }
        }
        return java.util.Optional.empty();
    }

    private static List<String> visit(String name, Map<String, ComponentSpec> byName,
                                      LinkedHashSet<String> path, Set<String> done) {
        if (done.contains(name)) {
            return null;
        }
        if (!path.add(name)) {
            List<String> cycle = new ArrayList<>(path);
            cycle = new ArrayList<>(cycle.subList(cycle.indexOf(name), cycle.size()));
            cycle.add(name);
            return cycle;
        }
        for (String dep : byName.get(name).after()) {
            List<String> found = visit(dep, byName, path, done);
            if (found != null) {
                return found;
            }
        }
        path.remove(name);
        done.add(name);
        return null;
    }
}
