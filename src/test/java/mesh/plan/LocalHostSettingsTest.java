package mesh.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** LocalHostSettingsTest is the table of where the local host verbs take the agent's state dir from. */
class LocalHostSettingsTest {

    static final String FILE = "/etc/mesh/host.env";
    static final Map<String, String> INSTALLED = Map.of("MESH_HOST_NODE", "g14", "MESH_HOST_STATE_DIR", "/var/lib/mesh/host",
            "MESH_HOST_ENGINE", "unix:///var/run/docker.sock");

    /** Case is the environment, the file's lines (null: absent), whether it was asked for, and what must come out. */
    record Case(String name, Map<String, String> env, Map<String, String> file, boolean asked, String stateDir, String from) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Case> cases() {
        return Stream.of(
                new Case("the installed agent's file, found in the default config dir", Map.of(), INSTALLED, false,
                        "/var/lib/mesh/host", "MESH_HOST_STATE_DIR from " + FILE),
                new Case("the same file asked for with --config-dir", Map.of(), INSTALLED, true,
                        "/var/lib/mesh/host", "MESH_HOST_STATE_DIR from " + FILE),
                new Case("the environment wins over the file", Map.of("MESH_HOST_STATE_DIR", "/srv/agent"), INSTALLED, false,
                        "/srv/agent", "MESH_HOST_STATE_DIR from the environment"),
                new Case("no file and no environment: today's default", Map.of(), null, false,
                        null, "the default state dir: no " + FILE + ", no MESH_HOST_STATE_DIR"),
                new Case("no file, the environment alone", Map.of("MESH_HOST_STATE_DIR", "/srv/agent"), null, false,
                        "/srv/agent", "MESH_HOST_STATE_DIR from the environment"),
                new Case("a file that sets no state dir", Map.of(), Map.of("MESH_HOST_NODE", "g14"), false,
                        null, "the default state dir: " + FILE + " sets no MESH_HOST_STATE_DIR"));
    }

    @ParameterizedTest
    @MethodSource("cases")
    void theStateDirComesFromTheEnvironmentThenTheFileThenTheDefault(Case c) {
        LocalHostSettings s = LocalHostSettings.resolve(c.env(), FILE, c.file(), c.asked());
        assertNull(s.problem());
        assertEquals(c.stateDir(), s.vars().get("MESH_HOST_STATE_DIR"));
        assertEquals(c.from(), s.stateDirFrom());
        if (c.file() != null) {
            assertEquals(c.env().getOrDefault("MESH_HOST_NODE", "g14"), s.vars().get("MESH_HOST_NODE"), "the file's other settings too");
        }
    }

    @ParameterizedTest
    @MethodSource("cases")
    void aFileAskedForThatIsNotThereIsAProblemNamingIt(Case c) {
        LocalHostSettings s = LocalHostSettings.resolve(c.env(), "/srv/etc/host.env", null, true);
        assertTrue(s.problem().startsWith("/srv/etc/host.env does not exist: 'mesh install' writes the agent's settings there"),
                s.problem());
        assertTrue(s.problem().contains("default /etc/mesh"), s.problem());
    }
}
