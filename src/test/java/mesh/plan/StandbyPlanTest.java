package mesh.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import mesh.model.Manifest;
import mesh.model.ManifestYaml;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class StandbyPlanTest {

    static final String INITDB_HBA = "local all all trust\nhost all all 127.0.0.1/32 trust\n"
            + "local replication all trust\nhost replication all 127.0.0.1/32 trust\nhost all all all scram-sha-256\n";

    @ParameterizedTest(name = "{0}: added {1}")
    @CsvSource(delimiter = '|', value = {
            "host replication mesh_replica all scram-sha-256|false",
            "host  replication\tall all md5|false",
            "host replication mesh_replica all trust|true",          // not ours: a password line is still added
            "host replication all 127.0.0.1/32 trust|true",          // initdb's: loopback only
            "host all all all scram-sha-256|true",                   // 'all' databases never match replication
            "# host replication mesh_replica all scram-sha-256|true",
    })
    void theSeatLetsTheStandbyStreamOnce(String line, boolean added) {
        String hba = INITDB_HBA + line + "\n";
        var result = StandbyPlan.hbaWith(hba);
        assertEquals(added, result.isPresent(), line);
        result.ifPresent(h -> {
            assertTrue(h.endsWith(hba), "the seat's own lines are kept, after ours");
            assertTrue(StandbyPlan.hbaWith(h).isEmpty(), "a second run adds nothing");
            assertTrue(h.lines().filter(l -> !l.startsWith("#")).findFirst().orElseThrow().equals(StandbyPlan.hbaLine()),
                    "ours is the first line, so it wins over any later one");
        });
    }

    @Test
    void theSeatsSqlIsARoleAndASlotEachSafeToRunAgain() {
        List<String> sql = StandbyPlan.seatSql("n-2", "it's");
        assertEquals(3, sql.size());
        assertTrue(sql.get(0).contains("IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'mesh_replica')"), sql.get(0));
        assertEquals("ALTER ROLE mesh_replica WITH REPLICATION LOGIN PASSWORD 'it''s'", sql.get(1));
        assertTrue(sql.get(2).contains("pg_create_physical_replication_slot('mesh_standby_n_2') WHERE NOT EXISTS"), sql.get(2));
    }

    @Test
    void theStandbysModuleIsAManifestTheCatalogueTakes() {
        String text = StandbyPlan.manifest("mesh-test/postgres:15", "10.77.0.190", "n2");
        Manifest m = ManifestYaml.parse("mesh-standby.yaml", text);
        assertEquals(StandbyPlan.MODULE, m.module());
        Manifest.Component c = m.components().get("mesh-standby.postgres");
        assertEquals("mesh-test/postgres:15", c.image());
        assertEquals(List.of("sh", "-c", StandbyPlan.script("10.77.0.190", "n2")), c.args());
        assertTrue(c.args().get(2).contains("pg_basebackup -d \"host=10.77.0.190 port=5432 user=mesh_replica application_name=n2\""
                + " -D /var/lib/postgresql/data -X stream -R -S mesh_standby_n2"), c.args().get(2));
        assertTrue(c.args().get(2).endsWith("exec docker-entrypoint.sh postgres"), "the server is the container's PID 1");
    }

    @Test
    void aRestartedStandbyKeepsItsOwnCluster() {
        String script = StandbyPlan.script("ace", "n2");
        int check = script.indexOf("if [ ! -s \"$D/PG_VERSION\" ]");
        assertTrue(check >= 0 && check < script.indexOf("pg_basebackup"), "a base backup only into an empty folder");
    }
}
