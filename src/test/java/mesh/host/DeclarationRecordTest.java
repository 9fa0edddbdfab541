package mesh.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import mesh.model.Declaration;
import mesh.model.DeclarationJson;
import mesh.model.PushOrigin;
import mesh.model.Specs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * DeclarationRecordTest: a host's record says where each generation came from (a named push, a
 * file given to {@code mesh host apply}), and a record kept by an older mesh, without either,
 * still reads and says so.
 */
class DeclarationRecordTest {

    @TempDir
    Path state;

    @Test
    void eachRecordSaysWhereItCameFromAndOldRecordsStillRead() throws Exception {
        DeclarationRecords records = new DeclarationRecords(state);
        Declaration d = Specs.declaration("ace", 1, Specs.component("a").build());
        Instant at = Instant.parse("2026-11-30T20:00:00Z");
        records.write(d.withPush(PushOrigin.of(42, "alice")), at);
        records.write(new Declaration("ace", null, 2, d.components()), at, "/root/web.json");
        records.write(new Declaration("ace", null, 3, d.components()).withPush(PushOrigin.ofTake(57, "controller", "web", 3)), at);
        // as an older mesh wrote it: neither push nor file
        Files.writeString(records.dir().resolve("000000000004.json"), "{\"generation\":4,\"receivedAt\":\"2026-11-30T20:00:00Z\","
                + "\"declaration\":" + DeclarationJson.write(new Declaration("ace", null, 4, d.components())) + "}");

        List<String> origins = records.generations().stream()
                .map(g -> DeclarationRecord.origin(records.read(g).orElseThrow())).toList();
        assertEquals(List.of("pushed by alice (push 42)", "from file /root/web.json on this node (mesh host apply)",
                "pushed by controller for the take of web, epoch 3 (push 57)", "not named (the installer's first push, or an older mesh)"), origins);
        assertEquals(PushOrigin.of(42, "alice"), records.read(1).orElseThrow().declaration().push());
        assertNull(records.read(4).orElseThrow().file());
        assertEquals("/root/web.json", records.read(2).orElseThrow().file());
    }
}
