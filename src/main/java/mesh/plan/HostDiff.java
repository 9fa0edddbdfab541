package mesh.plan;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import mesh.model.ComponentSpec;
import mesh.model.ContainerRequest;
import mesh.model.Declaration;
import mesh.model.ObservedContainer;
import mesh.model.SpecDigest;

/**
 * HostDiff compares a declaration with the containers the mesh owns on a node and says, per
 * component, create / replace (with the fields that changed) / start / remove / keep. Pure: it
 * reads no engine and no clock, so every rule here is a table-driven unit test.
 */
public final class HostDiff {

    private HostDiff() {
    }

    public static HostPlan between(Declaration declaration, List<ObservedContainer> observed) {
        Map<String, ObservedContainer> byName = observed.stream()
                .collect(Collectors.toMap(ObservedContainer::name, Function.identity(), (a, b) -> a));
        List<ComponentSpec> create = new ArrayList<>();
        List<HostPlan.Replace> replace = new ArrayList<>();
        List<HostPlan.Start> start = new ArrayList<>();
        List<HostPlan.Keep> keep = new ArrayList<>();
        for (ComponentSpec spec : declaration.components()) {
            ObservedContainer current = byName.get(spec.name());
            List<String> changes = current == null ? List.of()
                    : SpecDigest.changes(current, ContainerRequest.of(spec, declaration.address()));
            if (current == null) {
                create.add(spec);
            } else if (!changes.isEmpty()) {
                replace.add(new HostPlan.Replace(spec, current, changes));
            } else if (!current.running()) {
                start.add(new HostPlan.Start(spec, current));
            } else {
                keep.add(new HostPlan.Keep(spec, current));
            }
        }
        List<ObservedContainer> remove = observed.stream()
                .filter(o -> declaration.component(o.name()).isEmpty())
                .sorted(Comparator.comparing(ObservedContainer::name))
                .toList();
        return new HostPlan(create, replace, start, remove, keep);
    }
}
