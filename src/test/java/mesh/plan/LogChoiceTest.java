package mesh.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import mesh.model.Conflict;
import mesh.model.Manifest;
import mesh.model.ManifestYaml;
import mesh.model.NotFound;
import mesh.model.Placement;
import org.junit.jupiter.api.Test;

class LogChoiceTest {

    static final Manifest GITEA = ManifestYaml.parse("gitea.yaml", """
            module: gitea
            components:
              gitea.server:
                image: gitea/gitea:1.22
              gitea.cache:
                image: valkey/valkey:8
            """);

    static final Optional<Placement> TAKEN = Optional.of(new Placement("gitea", "n2", "n2"));

    @Test
    void theWholeModuleIsEveryComponentOnTheNodeItIsTakenOn() {
        LogChoice.Target t = LogChoice.choose("gitea", null, Optional.of(GITEA),
                Optional.of(new Placement("gitea", "n3", "n2")));
        assertEquals("n2", t.node(), "logs follow take, not assign");
        assertEquals(List.of("gitea.server", "gitea.cache"), t.components());
        assertTrue(t.several());
    }

    @Test
    void aComponentIsNamedInFullOrByItsPartAfterTheModule() {
        assertEquals(List.of("gitea.cache"), LogChoice.choose("gitea", "gitea.cache", Optional.of(GITEA), TAKEN).components());
        LogChoice.Target t = LogChoice.choose("gitea", "server", Optional.of(GITEA), TAKEN);
        assertEquals(List.of("gitea.server"), t.components());
        assertFalse(t.several());
    }

    @Test
    void anUnknownModuleOrComponentIsNamed() {
        NotFound module = assertThrows(NotFound.class, () -> LogChoice.choose("gitee", null, Optional.empty(), Optional.empty()));
        assertTrue(module.getMessage().contains("unknown module gitee"), module.getMessage());
        NotFound component = assertThrows(NotFound.class, () -> LogChoice.choose("gitea", "db", Optional.of(GITEA), TAKEN));
        assertEquals("module gitea has no component db (it has gitea.server, gitea.cache)", component.getMessage());
    }

    @Test
    void aModuleThatRunsNowhereIsRefusedNamingIt() {
        Conflict never = assertThrows(Conflict.class, () -> LogChoice.choose("gitea", null, Optional.of(GITEA), Optional.empty()));
        assertTrue(never.getMessage().startsWith("module gitea runs nowhere"), never.getMessage());
        Conflict assigned = assertThrows(Conflict.class, () -> LogChoice.choose("gitea", null, Optional.of(GITEA),
                Optional.of(new Placement("gitea", "n3", null))));
        assertTrue(assigned.getMessage().contains("assigned to n3"), assigned.getMessage());
    }

    @Test
    void linesCarryTheirComponentOnlyWhenSeveralAreShown() {
        assertEquals("gitea.cache | ready", LogChoice.shown("gitea.cache", "ready", true));
        assertEquals("ready", LogChoice.shown("gitea.cache", "ready", false));
    }
}
