package mesh.controller;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import mesh.plan.PushDecision;
import mesh.wire.Accepted;
import mesh.wire.HostStatus;
import mesh.wire.PlanView;
import mesh.wire.PushReport;

/**
 * PushResults turns the agents' answers to a push (or to its previews) into the report's lines,
 * one per target, in the targets' order. Each answer is the agent's, or the failure's message.
 */
final class PushResults {

    private PushResults() {
    }

    static List<PushReport.NodeResult> previewed(List<PushDecision.Target> targets, Map<String, Object> previews) {
        List<PushReport.NodeResult> results = new ArrayList<>();
        for (PushDecision.Target t : targets) {
            Object p = previews.get(t.node().name());
            results.add(new PushReport.NodeResult(t.node().name(), p instanceof PlanView ? PushReport.Outcome.WOULD_SEND : PushReport.Outcome.BEHIND,
                    t.declaration().generation(), t.leftBehind(), p instanceof PlanView v ? v : null,
                    p instanceof String s ? s : null));
        }
        return results;
    }

    static List<PushReport.NodeResult> sent(List<PushDecision.Target> targets, Map<String, Object> answers) {
        List<PushReport.NodeResult> results = new ArrayList<>();
        for (PushDecision.Target t : targets) {
            Object answer = answers.get(t.node().name());
            results.add(answer instanceof Accepted a
                    ? new PushReport.NodeResult(t.node().name(), PushReport.Outcome.SENT, a.generation(), t.leftBehind(), a.plan(), null)
                    : new PushReport.NodeResult(t.node().name(), PushReport.Outcome.BEHIND, t.declaration().generation(), t.leftBehind(),
                            null, (String) answer));
        }
        return results;
    }

    /** The generations the agents said they hold, of those that answered. */
    static Map<String, Long> generations(Map<String, Object> statuses) {
        Map<String, Long> held = new LinkedHashMap<>();
        statuses.forEach((node, a) -> {
            if (a instanceof HostStatus h) {
                held.put(node, h.generation());
            }
        });
        return held;
    }

    /** A note for each node that accepted another generation than planned. */
    static List<String> acceptedNotes(List<PushDecision.Target> targets, Map<String, Object> answers) {
        List<String> notes = new ArrayList<>();
        for (PushDecision.Target t : targets) {
            if (answers.get(t.node().name()) instanceof Accepted a) {
                PushDecision.acceptedNote(t, a.generation()).ifPresent(notes::add);
            }
        }
        return notes;
    }
}
