package mesh.cli;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import mesh.controller.MeshStatus;
import mesh.wire.NodeStatus;
import mesh.wire.PushReport;

/**
 * ConvergenceWait is {@code push --wait}: after a push, polls {@code mesh status} until every node
 * the push sent has applied its generation and runs all of it, printing each node's state when it
 * changes. It gives up at the deadline and says which nodes are not there yet, and why.
 */
final class ConvergenceWait {

    static final Duration POLL = Duration.ofSeconds(1);

    private final ControllerClient controller;
    private final Consumer<String> progress;

    ConvergenceWait(ControllerClient controller, Consumer<String> progress) {
        this.controller = controller;
        this.progress = progress;
    }

    /** Waits for the nodes the push sent; returns the nodes not converged by then, each with its state. */
    Map<String, String> await(PushReport report, Duration timeout) {
        Map<String, Long> sent = new LinkedHashMap<>();
        report.nodes().stream().filter(n -> n.outcome() == mesh.wire.PushReport.Outcome.SENT).forEach(n -> sent.put(n.node(), n.generation()));
        Map<String, String> waiting = new LinkedHashMap<>();
        Map<String, String> said = new LinkedHashMap<>();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            waiting.clear();
            for (NodeStatus n : controller.status()) {
                Long generation = sent.get(n.node().name());
                if (generation == null) {
                    continue;
                }
                boolean there = n.ok() && n.agent() != null && n.agent().appliedGeneration() >= generation;
                String state = there ? "converged at generation " + n.agent().appliedGeneration() : n.state();
                if (!state.equals(said.put(n.node().name(), state))) {
                    progress.accept(n.node().name() + ": " + state);
                }
                if (!there) {
                    waiting.put(n.node().name(), state);
                }
            }
            if (waiting.isEmpty() || System.nanoTime() > deadline) {
                return waiting;
            }
            sleep();
        }
    }

    static String describe(Map<String, String> waiting, Duration timeout) {
        List<String> nodes = waiting.entrySet().stream().map(e -> e.getKey() + " (" + e.getValue() + ")").toList();
        return "not converged within " + timeout.toSeconds() + " s: " + String.join(", ", nodes)
                + "; 'mesh status' shows where they stand";
    }

    private static void sleep() {
        try {
            Thread.sleep(POLL.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new VerbFailure("interrupted while waiting for the nodes to converge");
        }
    }
}
