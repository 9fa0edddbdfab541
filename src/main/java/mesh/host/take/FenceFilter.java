package mesh.host.take;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import mesh.model.ComponentSpec;
import mesh.model.Declaration;
import mesh.model.ObservedContainer;

/**
 * FenceFilter is how a fence is honoured by every apply: the fenced modules' components are taken out of
 * the declaration and out of what the engine and the supervisor show, before {@link mesh.plan.HostDiff}
 * compares them. So no pass, push or {@code mesh host apply} creates, starts, replaces or removes a
 * component of a fenced module, whatever the declaration says. Pure.
 */
public final class FenceFilter {

    private FenceFilter() {
    }

    /** The declaration without the fenced modules' components (an {@code after} naming one is dropped too). */
    public static Declaration declaration(Declaration d, Set<String> fenced) {
        if (d == null || fenced.isEmpty() || d.components().stream().noneMatch(c -> fenced.contains(c.module()))) {
            return d;
        }
        List<ComponentSpec> kept = d.components().stream().filter(c -> !fenced.contains(c.module())).toList();
        Set<String> names = kept.stream().map(ComponentSpec::name).collect(Collectors.toSet());
        List<ComponentSpec> components = kept.stream().map(c -> c.after().stream().allMatch(names::contains) ? c
                : c.withAfter(c.after().stream().filter(names::contains).toList())).toList();
        return new Declaration(d.node(), d.address(), d.generation(), components, d.registry(), d.edge(), d.push());
    }

    /** What the engine and the supervisor show, without the fenced modules' components. */
    public static List<ObservedContainer> observed(List<ObservedContainer> observed, Set<String> fenced) {
        return fenced.isEmpty() ? observed : observed.stream().filter(o -> !fenced.contains(o.module())).toList();
    }
}
