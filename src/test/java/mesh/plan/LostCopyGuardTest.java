package mesh.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import java.util.Map;
import java.util.Set;
import mesh.model.ComponentSpec;
import mesh.model.Declaration;
import org.junit.jupiter.api.Test;

/** LostCopyGuardTest: no declaration that runs a module reaches a node holding an unfenced lost copy of it; others do. */
class LostCopyGuardTest {

    static Declaration runs(String... modules) {
        List<ComponentSpec> components = java.util.Arrays.stream(modules)
                .map(m -> new ComponentSpec(m, m + ".server", "mesh-test/busybox:1", List.of(), Map.of(), Map.of(), List.of(),
                        Map.of(), null, List.of(), null, null)).toList();
        return new Declaration("n2", "10.77.0.12", 7, components, null, null);
    }

    @Test
    void aDeclarationThatRunsTheLostModuleThereIsRefusedNamingIt() {
        assertEquals("node n2 holds a copy of db restored elsewhere while it was down, not fenced yet: a declaration that runs"
                + " db there is not sent before the controller fences it (the moment the node answers)",
                LostCopyGuard.refusal(runs("web", "db"), Set.of("db", "mail")));
    }

    @Test
    void oneWithoutItGoesAsDoesAnyWhereNothingIsLost() {
        assertNull(LostCopyGuard.refusal(runs("web"), Set.of("db")), "the node's declaration once db moved: sent");
        assertNull(LostCopyGuard.refusal(runs("web", "db"), Set.of()));
    }
}
