package mesh.host;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import mesh.model.ComponentSpec;
import mesh.model.ContainerRequest;
import mesh.model.Declaration;
import mesh.model.ObservedContainer;
import mesh.model.SpecDigest;
import mesh.model.Specs;

/** PassStepsFixture: a declaration, what runs of it, a fixed clock and a log that keeps its lines, for the pass steps' tests. */
final class PassStepsFixture {

    static final Instant NOW = Instant.parse("2026-12-01T10:00:00Z");
    static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);
    static final ComponentSpec WEB = Specs.component("web.server").module("web").build();
    static final ComponentSpec DB = Specs.component("db.server").module("db").build();

    private PassStepsFixture() {
    }

    static Declaration declaration(long generation, ComponentSpec... components) {
        return new Declaration("n1", "10.77.0.11", generation, List.of(components));
    }

    static ObservedContainer running(ComponentSpec c) {
        ContainerRequest r = ContainerRequest.of(c, null);
        return new ObservedContainer("id-" + c.name(), c.name(), c.module(), SpecDigest.of(r),
                SpecDigest.canonical(SpecDigest.CURRENT_VERSION, r), 1, true);
    }

    static AgentState state() {
        return new AgentState("n1", CLOCK, new FailureLog(s -> { }, s -> { }));
    }

    /** A pass over {@code d} with what runs, nothing fenced, as the observe step leaves it. */
    static PassStep.Context observed(Declaration d, List<ObservedContainer> all) {
        PassStep.Context pass = new PassStep.Context(d, NOW);
        pass.view = new HostIntake.Unfenced(d, all, Set.of(), all);
        pass.plan = pass.view.plan();
        return pass;
    }

    /** Lines said, in order. */
    static final class Said extends ArrayList<String> implements java.util.function.Consumer<String> {
        @Override
        public void accept(String line) {
            add(line);
        }
    }
}
