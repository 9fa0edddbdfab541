package mesh.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** ManifestBackupTest: a module's backup: and a component's backup command, read and checked where they stand. */
class ManifestBackupTest {

    static final String DB = """
            module: db
            backup: {every: 24h, keep: 3, volumes: [dump]}
            components:
              db.server:
                image: mesh-test/postgres:15
                volumes: {data: /var/lib/postgresql/data, dump: /docker-entrypoint-initdb.d}
                backup: [sh, -c, "pg_dump -U postgres app > /docker-entrypoint-initdb.d/app.sql"]
            """;

    @Test
    void aModulesScheduleAndAComponentsCommandAreRead() {
        Manifest m = ManifestYaml.parse("db.yaml", DB);
        assertEquals(new Manifest.Backup(86400L, 3, List.of("dump"), null), m.backup());
        assertEquals(Map.of("db.server", List.of("sh", "-c", "pg_dump -U postgres app > /docker-entrypoint-initdb.d/app.sql")),
                m.backupCommands());
        assertEquals(3, m.backupOrDefault().kept());
    }

    @Test
    void withoutBackupFieldsNothingIsScheduledAndSevenAreKept() {
        Manifest m = ManifestYaml.parse("web.yaml", "module: web\ncomponents:\n  web.server:\n    image: mesh-test/busybox:1\n");
        assertNull(m.backup());
        assertTrue(m.backupCommands().isEmpty());
        assertEquals(7, m.backupOrDefault().kept());
        assertNull(m.backupOrDefault().every());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "seconds      | backup: {every: 24}                  | backup.every: must be a period like 24h, 30m or 7d (a bare number is seconds), at least 1m, got \"24\"",
        "too short    | backup: {every: 0m}                  | at least 1m, got \"0m\"",
        "keep zero    | backup: {keep: 0}                    | backup.keep",
        "unknown key  | backup: {every: 1h, often: true}     | often",
        "volume       | backup: {volumes: [logs]}            | names \"logs\", which no component of module db declares (volumes: data, dump)",
        "registry     | backup: {registry: somewhere}        | backup.registry: must be a registry's URL",
    })
    void aBadModuleBackupIsNamedWhereItStands(String name, String line, String expected) {
        String yaml = DB.replace("backup: {every: 24h, keep: 3, volumes: [dump]}", line);
        InvalidInput refused = assertThrows(InvalidInput.class, () -> ManifestYaml.parse("db.yaml", yaml), name);
        assertTrue(refused.problems().stream().anyMatch(p -> p.contains(expected)), name + ": " + refused.problems());
    }

    @Test
    void aBackupCommandIsAListOfWordsAndNeverOnAProcess() {
        InvalidInput empty = assertThrows(InvalidInput.class, () -> ManifestYaml.parse("db.yaml",
                DB.replace("backup: [sh, -c, \"pg_dump -U postgres app > /docker-entrypoint-initdb.d/app.sql\"]", "backup: []")));
        assertTrue(empty.problems().stream().anyMatch(p -> p.contains("components.db.server.backup: is empty")), empty.problems().toString());
        InvalidInput process = assertThrows(InvalidInput.class, () -> ManifestYaml.parse("p.yaml", """
                module: p
                components:
                  p.run:
                    bundle: tools/p
                    volumes: {data: DATA}
                    backup: [dump]
                """));
        assertTrue(process.problems().stream().anyMatch(p -> p.contains("components.p.run.backup: a backup command runs in a container")),
                process.problems().toString());
    }
}
