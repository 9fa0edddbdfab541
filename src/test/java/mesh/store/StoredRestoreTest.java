package mesh.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import mesh.model.DeclarationJson;
import mesh.model.TakeStep;
import mesh.plan.Take;
import mesh.plan.TakePlan;
import org.junit.jupiter.api.Test;

/**
 * StoredRestoreTest: a restore is a take from a backup in memory, and keeps the shape restores always had in the store,
 * so a restore an earlier build recorded (a controller upgraded while one was under way) reads and carries on.
 */
class StoredRestoreTest {

    /** A restore record as the build before restores became takes wrote it (its own Restore record, RestoreStep words). */
    static final String EARLIER = "{\"id\":4,\"module\":\"db\",\"backup\":9,\"from\":\"n2\",\"to\":\"n3\",\"epoch\":31,\"lost\":true,"
            + "\"step\":\"restore\",\"volumes\":[{\"name\":\"dump\",\"kind\":\"container\",\"digest\":\"sha256:" + "a".repeat(64)
            + "\",\"bytes\":10,\"files\":1}],\"started\":false,\"problem\":\"the registry did not answer\"}";

    @Test
    void aRestoreAnEarlierBuildRecordedReadsAsATakeFromItsBackup() throws Exception {
        Take t = DeclarationJson.MAPPER.readValue(EARLIER, BackupRecords.StoredRestore.class).take();
        assertTrue(t.restoring());
        assertEquals(new Take.FromBackup(4, 9, true, null), t.fromBackup());
        assertEquals(TakeStep.RESTORE, t.step());
        assertEquals("n2", t.from());
        assertEquals("n3", t.to());
        assertEquals(31, t.epoch());
        assertEquals("the registry did not answer", t.problem());
        assertEquals(List.of("dump"), t.volumes().stream().map(Take.Volume::name).toList());
        assertEquals(TakeStep.START, TakePlan.after(t, new TakePlan.Restored(t.volumes())).step());
    }

    @Test
    void whatIsWrittenReadsBackTheSame() throws Exception {
        Take t = DeclarationJson.MAPPER.readValue(EARLIER, BackupRecords.StoredRestore.class).take();
        String written = DeclarationJson.write(BackupRecords.StoredRestore.of(t));
        assertEquals(DeclarationJson.MAPPER.readTree(EARLIER), DeclarationJson.MAPPER.readTree(written),
                "the same fields, the same words: an earlier build reads it too");
        assertEquals(t, DeclarationJson.MAPPER.readValue(written, BackupRecords.StoredRestore.class).take());
    }

    @Test
    void theNodeSaidDownIsKeptAndReadBack() throws Exception {
        Take t = Take.restore(5, "db", 9, "n2", "n3", 40, List.of(), "n2");
        String written = DeclarationJson.write(BackupRecords.StoredRestore.of(t));
        assertTrue(written.contains("\"down\":\"n2\""), written);
        Take back = DeclarationJson.MAPPER.readValue(written, BackupRecords.StoredRestore.class).take();
        assertEquals(t.fromBackup(), back.fromBackup());
        assertTrue(back.sourceSaidDown(), "a restore resumed from its record still knows its source was said down");
    }
}
