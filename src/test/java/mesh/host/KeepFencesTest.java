package mesh.host;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** KeepFencesTest: a pass stops exactly the fenced modules that run, says so once each, and keeps the fences for the status. */
class KeepFencesTest {

    @Test
    void stopsWhatOfAFencedModuleRunsAndNothingElse() {
        List<String> stopped = new ArrayList<>();
        AtomicReference<Set<String>> seen = new AtomicReference<>();
        PassStepsFixture.Said said = new PassStepsFixture.Said();
        KeepFences step = new KeepFences(() -> Set.of("web", "db"), m -> m.equals("web"),
                m -> {
                    stopped.add(m);
                    return List.of(m + ".server");
                }, seen::set, said);
        step.run(new PassStep.Context(PassStepsFixture.declaration(1), PassStepsFixture.NOW));
        assertEquals(List.of("web"), stopped, "db is fenced but does not run: nothing to stop");
        assertEquals(Set.of("web", "db"), seen.get());
        assertEquals(List.of("module web is fenced; stopping what of it runs: [web.server]"), said);
    }

    @Test
    void noFenceStopsNothing() {
        List<String> stopped = new ArrayList<>();
        PassStepsFixture.Said said = new PassStepsFixture.Said();
        new KeepFences(Set::of, m -> true, m -> {
            stopped.add(m);
            return List.of();
        }, s -> { }, said).run(new PassStep.Context(PassStepsFixture.declaration(1), PassStepsFixture.NOW));
        assertEquals(List.of(), stopped);
        assertEquals(List.of(), said);
    }
}
