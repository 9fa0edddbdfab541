package mesh.host;

import static mesh.model.Specs.component;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import mesh.model.ComponentSpec;
import mesh.model.ObservedContainer;
import mesh.plan.HostPlan;
import org.junit.jupiter.api.Test;

class ContainerRestartsTest {

    static final Instant T0 = Instant.parse("2026-12-05T10:00:00Z");
    static final ComponentSpec WEB = component("web.server").module("web").build();
    static final ComponentSpec APP = component("app.server").module("app").bundle("sha256:" + "a".repeat(64)).build();

    static HostPlan starting(ObservedContainer... stopped) {
        List<HostPlan.Start> starts = new ArrayList<>();
        for (ObservedContainer o : stopped) {
            starts.add(new HostPlan.Start(o.process() ? APP : WEB, o));
        }
        return new HostPlan(List.of(), List.of(), starts, List.of(), List.of());
    }

    static final ObservedContainer WEB_STOPPED = new ObservedContainer("c1", "web.server", "web", "d", "s", 1, false);
    static final ObservedContainer APP_STOPPED = new ObservedContainer("process:0", "app.server", "app", "d", "s", 0, false,
            List.of(), true);

    @Test
    void aContainerThatKeepsEndingIsStartedAgainLaterEachTimeAndCounted() {
        List<Duration> wakes = new ArrayList<>();
        ContainerRestarts r = new ContainerRestarts(Clock.fixed(T0, ZoneOffset.UTC), wakes::add);
        // seconds after T0 at which a pass finds it ended, and whether it is started then
        int[][] passes = {{0, 1}, {0, 0}, {1, 1}, {2, 0}, {3, 1}, {6, 0}, {7, 1}, {14, 0}, {15, 1}};
        int started = 0;
        for (int[] p : passes) {
            HostPlan plan = r.due(starting(WEB_STOPPED), T0.plusSeconds(p[0]));
            assertEquals(p[1], plan.start().size(), "pass at +" + p[0] + " s");
            started += p[1];
            assertEquals(started, r.restarts("c1"), "restarts counted at +" + p[0] + " s");
        }
        assertEquals(List.of(Duration.ofMillis(1050), Duration.ofMillis(1050), Duration.ofMillis(1050),
                Duration.ofMillis(1050)), wakes, "a pass is asked for when each put-off start is due");
    }

    @Test
    void aRunOfAMinuteStartsTheBackoffAgainAndAProcessIsLeftToItsSupervisor() {
        ContainerRestarts r = new ContainerRestarts(Clock.fixed(T0, ZoneOffset.UTC), d -> { });
        assertEquals(2, r.due(starting(WEB_STOPPED, APP_STOPPED), T0).start().size());
        assertEquals(1, r.due(starting(WEB_STOPPED, APP_STOPPED), T0).start().size(), "the process is not put off");
        assertEquals(2, r.due(starting(WEB_STOPPED, APP_STOPPED), T0.plusSeconds(1)).start().size());
        assertEquals(2, r.due(starting(WEB_STOPPED, APP_STOPPED), T0.plusSeconds(61)).start().size(),
                "after a run of a minute the next start is at once again");
        assertEquals(1, r.due(starting(WEB_STOPPED), T0.plusSeconds(62)).start().size(), "then 1 s after, as after a first end");
        assertEquals(4, r.restarts("c1"));
        r.due(starting(WEB_STOPPED), T0.plusSeconds(62));
        r.stoppedOnPurpose("c1");
        assertEquals(1, r.due(starting(WEB_STOPPED), T0.plusSeconds(62)).start().size(),
                "stopped by the agent (a fence): started at once when it may run again");
        assertEquals(4, r.restarts("c1"), "and not counted");
        r.keepOnly(java.util.Set.of("c2"));
        assertEquals(0, r.restarts("c1"), "a container that is gone is forgotten");
    }
}
