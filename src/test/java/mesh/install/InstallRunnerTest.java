package mesh.install;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import mesh.plan.InstallPlan;
import mesh.plan.InstallStep;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class InstallRunnerTest {

    @Test
    void aFailedStepStopsTheRunAndARerunResumesThereSayingWhatIsAlreadyDone(@TempDir Path state) {
        InstallJournal journal = new InstallJournal(state);
        List<String> said = new ArrayList<>();
        AtomicLong clock = new AtomicLong();
        InstallRunner runner = new InstallRunner(journal, said::add, () -> clock.addAndGet(1_500_000_000L));
        List<InstallStep> ran = new ArrayList<>();
        List<InstallRunner.Outcome> first = runner.run(InstallPlan.plan(false, journal.done()), step -> {
            ran.add(step);
            if (step == InstallStep.REGISTRY) {
                throw new InstallFailure("the artifact store does not answer");
            }
        });
        assertEquals(List.of(InstallStep.PREFLIGHT, InstallStep.AGENT, InstallStep.STORE, InstallStep.REGISTRY), ran);
        assertEquals("failed", first.get(3).result());
        assertEquals("[4/8] registry: failed after 1.5 s: the artifact store does not answer", said.get(said.size() - 1));
        assertEquals(EnumSet.of(InstallStep.PREFLIGHT, InstallStep.AGENT, InstallStep.STORE), journal.done());

        said.clear();
        ran.clear();
        List<InstallRunner.Outcome> second = runner.run(InstallPlan.plan(false, journal.done()), ran::add);
        assertEquals(List.of(InstallStep.REGISTRY, InstallStep.BUNDLE, InstallStep.CONTROLLER, InstallStep.PIVOT,
                InstallStep.CONFIG), ran);
        assertEquals("[1/8] preflight: already done", said.get(0));
        assertEquals("[4/8] registry: done in 1.5 s", said.get(4));
        assertEquals(8, second.size());

        said.clear();
        runner.run(InstallPlan.plan(false, journal.done()), step -> {
            throw new AssertionError("nothing should run: " + step);
        });
        assertEquals(8, said.stream().filter(l -> l.endsWith(": already done")).count());
    }

    @Test
    void secretsAreMadeOnceAndKeptAcrossRuns(@TempDir Path state) {
        String token = new InstallJournal(state).secret("MESH_CONTROLLER_TOKEN", InstallJournal::newToken);
        assertEquals(48, token.length());
        assertEquals(token, new InstallJournal(state).secret("MESH_CONTROLLER_TOKEN", () -> "other"));
        new InstallJournal(state).put("CONTROLLER_BUNDLE", "a");
        new InstallJournal(state).put("CONTROLLER_BUNDLE", "b");
        assertEquals("b", new InstallJournal(state).secret("CONTROLLER_BUNDLE", () -> "none"));
    }
}
