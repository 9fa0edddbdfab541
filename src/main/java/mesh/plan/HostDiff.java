package mesh.plan;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import mesh.model.ComponentSpec;
import mesh.model.ContainerRequest;
import mesh.model.Declaration;
import mesh.model.ObservedContainer;
import mesh.model.SpecDigest;

/**
 * HostDiff compares a declaration with the containers the mesh owns on a node (and the processes its
 * supervisor runs) and says, per
 * component, create / replace (with the fields that changed) / start / remove / keep. Pure: it
 * reads no engine and no clock, so every rule here is a table-driven unit test.
 */
public final class HostDiff {

    private HostDiff() {
    }

    public static HostPlan between(Declaration declaration, List<ObservedContainer> observed) {
        Map<String, ObservedContainer> chosen = new HashMap<>();
        List<ComponentSpec> create = new ArrayList<>();
        List<HostPlan.Replace> replace = new ArrayList<>();
        List<HostPlan.Start> start = new ArrayList<>();
        List<HostPlan.Keep> keep = new ArrayList<>();
        for (ComponentSpec spec : declaration.components()) {
            ObservedContainer current = current(spec, observed);
            List<String> changes = current == null ? List.of()
                    : SpecDigest.changes(current, ContainerRequest.of(spec, declaration.address()));
            if (current == null) {
                create.add(spec);
                continue;
            }
            chosen.put(spec.name(), current);
            if (current.process() != spec.process()) {
                changes = List.of(spec.process() ? "a container becomes a process" : "a process becomes a container");
            }
            if (!changes.isEmpty()) {
                replace.add(new HostPlan.Replace(spec, current, changes,
                        Cutover.stopFirstBecause(spec, current, declaration) == null));
            } else if (!current.running()) {
                start.add(new HostPlan.Start(spec, current));
            } else {
                keep.add(new HostPlan.Keep(spec, current));
            }
        }
        List<ObservedContainer> remove = observed.stream()
                .filter(o -> chosen.get(o.name()) != o)
                .sorted(Comparator.comparing(ObservedContainer::name))
                .toList();
        return new HostPlan(create, replace, start, remove, keep);
    }

    /**
     * What runs for the component now: of its kind (container or process) when there is one, else one of the
     * other kind (a component that changed kind is replaced). Anything else of its name is removed.
     */
    private static ObservedContainer current(ComponentSpec spec, List<ObservedContainer> observed) {
        ObservedContainer other = null;
        for (ObservedContainer o : observed) {
            if (o.name().equals(spec.name())) {
                if (o.process() == spec.process()) {
                    return o;
                }
                other = other == null ? o : other;
            }
        }
        return other;
    }
}
