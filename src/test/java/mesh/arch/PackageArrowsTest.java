package mesh.arch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * PackageArrowsTest keeps the arrows between the edges pointing one way (docs/design.md, "How the code is written"): the host agent
 * knows neither the operator's CLI nor the controller; the CLI reaches the engine only through the
 * host's use cases; the controller talks to agents over their API and its records, never through
 * the host's classes (what both sides read is a shared record type, not the agent's own); the CLI
 * reaches the controller only over its API (its one client), never its classes, but for the verb that
 * runs the controller itself; the pure decisions in plan/ take their own records, not the wire's, and the wire,
 * what both sides of a call read, uses nothing of the project but the model (a plan's record is mapped to the wire's at
 * the edge that sends it); the model, the ground floor, uses none of the floors above it.
 */
class PackageArrowsTest {

    static Stream<Arguments> arrows() {
        return Stream.of(
                Arguments.of("mesh.host", List.of("mesh.cli", "mesh.controller")),
                Arguments.of("mesh.cli", List.of("mesh.docker")),
                Arguments.of("mesh.plan", List.of("mesh.wire")),
                Arguments.of("mesh.controller", List.of("mesh.host")),
                // the wire is the contract both sides read: records over the model only, so no side's change moves it
                Arguments.of("mesh.wire", List.of("mesh.plan", "mesh.host", "mesh.controller", "mesh.cli", "mesh.client",
                        "mesh.api", "mesh.store", "mesh.docker", "mesh.install", "mesh.bundle", "mesh.trust")),
                // the model is the ground floor: records and their rules, which everything else uses
                Arguments.of("mesh.model", List.of("mesh.plan", "mesh.wire", "mesh.host", "mesh.controller", "mesh.cli",
                        "mesh.store", "mesh.docker", "mesh.install")));
    }

    @ParameterizedTest(name = "{0} uses none of {1}")
    @MethodSource("arrows")
    void noArrowPointsTheWrongWay(String from, List<String> forbidden) throws IOException {
        assertEquals(List.of(), SourceScan.violations(from, forbidden));
    }

    /**
     * The CLI speaks to the controller over its API only. {@code mesh controller serve} is the one verb that runs
     * the controller in its own process, so it starts it, as {@code mesh host serve} starts the agent.
     */
    @Test
    void theCliUsesNoControllerClassButTheVerbThatServesIt() throws IOException {
        List<String> found = SourceScan.violations("mesh.cli", List.of("mesh.controller")).stream()
                .filter(v -> !v.startsWith("mesh/cli/ControllerServeCommand.java ")).toList();
        assertEquals(List.of(), found);
    }

    @Test
    void aWrongArrowIsCaughtByImportAndByQualifiedName() {
        String bad = "package mesh.cli;\nimport mesh.docker.DockerEngine;\nimport mesh.host.HostIntake;\n"
                + "class X { mesh.docker.Engine e; mesh.hostile.Y y; }\n";
        assertEquals(List.of("mesh.docker.DockerEngine", "mesh.docker.Engine"), SourceScan.uses(bad, List.of("mesh.docker")));
        assertEquals(List.of("mesh.host.HostIntake"), SourceScan.uses(bad, List.of("mesh.host")));
        String wire = "package mesh.wire;\nimport mesh.plan.Take;\nimport mesh.model.TakeStep;\n"
                + "record V(List<mesh.plan.Take.Volume> volumes, mesh.planned.X x) {}\n";
        assertEquals(List.of("mesh.plan.Take", "mesh.plan.Take.Volume"), SourceScan.uses(wire, List.of("mesh.plan")));
    }
}
