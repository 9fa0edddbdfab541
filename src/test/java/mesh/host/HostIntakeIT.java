package mesh.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import mesh.docker.DockerEngine;
import mesh.model.Declaration;
import mesh.model.Specs;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * HostIntakeIT takes declarations through {@link HostIntake} the way {@code mesh host apply FILE}
 * does, on the real engine and a real state folder: the push's generation rule and message, the
 * record kept before the apply, and the newest record given again applied without a new record.
 */
class HostIntakeIT {

    EngineFixture engine;
    DockerEngine docker;
    Path stateDir;
    HostIntake intake;
    List<String> log = java.util.Collections.synchronizedList(new ArrayList<>());

    @BeforeEach
    void setUp() throws IOException {
        engine = new EngineFixture();
        docker = new DockerEngine(EngineFixture.ENGINE);
        stateDir = Files.createTempDirectory("mesh-intake");
        intake = new HostIntake(engine.node, new DeclarationRecords(stateDir), docker, Clock.systemUTC(), 4);
    }

    @AfterEach
    void tearDown() {
        intake.close();
        engine.close();
    }

    Declaration declaration(long generation, String value) {
        return new Declaration(engine.node, null, generation, List.of(
                Specs.component(engine.name("web")).module(engine.name("app")).network(engine.name("app"))
                        .args("sh", "-c", HostApplyIT.TRAPS_TERM).env("V", value).stopTimeout(2).build()));
    }

    @Test
    void aFileIsRecordedLikeAPushThenAppliedAndTheNewestRecordAgainIsAppliedWithoutANewRecord() {
        HostIntake.Once first = intake.applyOnce(declaration(3, "a"), log::add);
        assertTrue(first.recorded());
        assertTrue(first.report().ok(), first.report().failures().toString());
        assertEquals(List.of(3L), intake.records().generations());
        assertEquals(declaration(3, "a"), intake.records().read(3).orElseThrow().declaration());
        String id = engine.inspect(engine.name("web")).getId();

        long writes = docker.writes();
        HostIntake.Once again = intake.applyOnce(declaration(3, "a"), log::add);
        assertFalse(again.recorded());
        assertTrue(again.plan().isEmpty(), again.plan().summary());
        assertEquals(0, docker.writes() - writes, "engine writes when the newest record is given again");
        assertEquals(List.of(3L), intake.records().generations());
        assertEquals(id, engine.inspect(engine.name("web")).getId());
    }

    @Test
    void aStaleOrOtherContentGenerationIsRefusedWithThePushMessageAndChangesNothing() throws Exception {
        intake.applyOnce(declaration(3, "a"), log::add);
        String id = engine.inspect(engine.name("web")).getId();

        for (Declaration stale : List.of(declaration(3, "b"), declaration(2, "a"))) {
            DeclarationRefused refused = assertThrows(DeclarationRefused.class, () -> intake.applyOnce(stale, log::add));
            assertEquals(DeclarationRefused.Reason.NOT_NEWER, refused.reason());
            assertEquals("generation " + stale.generation() + " is not newer than the last accepted, 3; nothing was changed",
                    refused.getMessage());
        }
        DeclarationRefused elsewhere = assertThrows(DeclarationRefused.class,
                () -> intake.applyOnce(new Declaration("elsewhere", null, 9, List.of()), log::add));
        assertEquals(DeclarationRefused.Reason.OTHER_NODE, elsewhere.reason());
        assertEquals("the declaration is for node 'elsewhere', this host is '" + engine.node + "'; nothing was changed",
                elsewhere.getMessage());

        assertEquals(List.of(3L), intake.records().generations());
        assertEquals(id, engine.inspect(engine.name("web")).getId());
        assertEquals("a", engine.exec(engine.name("web"), "sh", "-c", "echo $V").strip());
    }

    @Test
    void aPreviewRecordsAndChangesNothing() {
        intake.applyOnce(declaration(3, "a"), log::add);
        String id = engine.inspect(engine.name("web")).getId();

        var plan = intake.preview(declaration(4, "b"));

        assertEquals(List.of("env"), plan.replace().get(0).fields());
        assertEquals(List.of(3L), intake.records().generations());
        assertEquals(id, engine.inspect(engine.name("web")).getId());
    }
}
