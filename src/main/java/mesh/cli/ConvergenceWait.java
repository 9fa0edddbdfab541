package mesh.cli;

import mesh.model.ComponentState;
import mesh.model.Poll;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import mesh.wire.NodeStatus;
import mesh.wire.PushReport;

/**
 * ConvergenceWait is {@code push --wait}: after a push, polls {@code mesh status} until every node
 * the push sent has applied its generation and runs all of it healthy, printing each node's state when
 * it changes. It stops at once when a failure is definite (an agent that judged the generation sent
 * reports a component failing, as when its image is missing or the engine refused to create it, or
 * crash-looping), naming node, component and the whole reason; otherwise it gives up at the deadline
 * and says which nodes are not there yet, and why (a component still unhealthy is named so).
 */
final class ConvergenceWait {

    /** The poll's interval: quick while a push usually converges (a few seconds), then once a second. */
    static Duration poll(Duration waited) {
        return waited.compareTo(QUICK) < 0 ? Duration.ofMillis(250) : Duration.ofSeconds(1);
    }

    private static final Duration QUICK = Duration.ofSeconds(5);

    private final ControllerClient controller;
    private final Consumer<String> progress;

    ConvergenceWait(ControllerClient controller, Consumer<String> progress) {
        this.controller = controller;
        this.progress = progress;
    }

    /**
     * Result is how a wait ended: the nodes not converged, each with its state (empty: all are), and the
     * definite failures that ended it early ({@code node/component crash-looping: reason}), if any.
     */
    record Result(Map<String, String> waiting, List<String> definite) {
        boolean converged() {
            return waiting.isEmpty();
        }
    }

    /** Waits for the nodes the push sent, until they converge, a failure is definite, or the timeout. */
    Result await(PushReport report, Duration timeout) {
        Map<String, Long> sent = new LinkedHashMap<>();
        report.nodes().stream().filter(n -> n.outcome() == mesh.wire.PushReport.Outcome.SENT).forEach(n -> sent.put(n.node(), n.generation()));
        Map<String, String> waiting = new LinkedHashMap<>();
        Map<String, String> said = new LinkedHashMap<>();
        Poll.Result<Result> r;
        try {
            r = Poll.until(timeout, ConvergenceWait::poll, () -> look(sent, waiting, said));
        } catch (java.util.concurrent.CancellationException e) {
            throw new VerbFailure("interrupted while waiting for the nodes to converge");
        }
        return r instanceof Poll.Answered<Result> a ? a.value() : new Result(new LinkedHashMap<>(waiting), List.of());
    }

    /** One look at the mesh's status: the wait's end when every node sent converged or a failure is definite. */
    private Poll.Ask<Result> look(Map<String, Long> sent, Map<String, String> waiting, Map<String, String> said) {
        waiting.clear();
        List<String> definite = new java.util.ArrayList<>();
        for (NodeStatus n : controller.api().status(false)) {
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
                definite.addAll(definite(n, generation));
            }
        }
        return waiting.isEmpty() || !definite.isEmpty() ? Poll.got(new Result(new LinkedHashMap<>(waiting), definite))
                : Poll.notYet(waiting.size() + " nodes not converged");
    }

    /**
     * The failures of a node that waiting cannot end: only from an agent that has judged the generation
     * sent (or a newer one), so a failure of the generation before is never blamed on this push.
     */
    static List<String> definite(NodeStatus n, long generation) {
        if (n.agent() == null || n.agent().generation() < generation || n.agent().judgedGeneration() < generation) {
            return List.of();
        }
        return n.agent().components().stream()
                .filter(c -> c.state() == ComponentState.FAILING || c.state() == ComponentState.CRASH_LOOPING)
                .map(c -> n.node().name() + "/" + c.name() + " " + c.state() + (c.why() == null ? "" : ": " + c.why()))
                .toList();
    }

    static String describe(Result result, Duration timeout) {
        if (!result.definite().isEmpty()) {
            return "failed: " + String.join("; ", result.definite()) + "; 'mesh status' shows where every node stands";
        }
        List<String> nodes = result.waiting().entrySet().stream().map(e -> e.getKey() + " (" + e.getValue() + ")").toList();
        return "not converged within " + timeout.toSeconds() + " s: " + String.join(", ", nodes)
                + "; 'mesh status' shows where they stand";
    }
}
