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

    static List<PushReport.NodeResult> previewed(List<PushDecision.Target> targets, Map<String, AgentAnswer<PlanView>> previews) {
        List<PushReport.NodeResult> results = new ArrayList<>();
        for (PushDecision.Target t : targets) {
            AgentAnswer<PlanView> p = previews.get(t.node().name());
            results.add(new PushReport.NodeResult(t.node().name(), p.ok() ? PushReport.Outcome.WOULD_SEND : PushReport.Outcome.BEHIND,
                    t.declaration().generation(), t.leftBehind(), p.value(), p.failure()));
        }
        return results;
    }

    static List<PushReport.NodeResult> sent(List<PushDecision.Target> targets, Map<String, AgentAnswer<Accepted>> answers) {
        List<PushReport.NodeResult> results = new ArrayList<>();
        for (PushDecision.Target t : targets) {
            AgentAnswer<Accepted> answer = answers.get(t.node().name());
            results.add(answer.ok()
                    ? new PushReport.NodeResult(t.node().name(), PushReport.Outcome.SENT, answer.value().generation(), t.leftBehind(),
                            answer.value().plan(), null)
                    : new PushReport.NodeResult(t.node().name(), PushReport.Outcome.BEHIND, t.declaration().generation(), t.leftBehind(),
                            null, answer.failure()));
        }
        return results;
    }

    /** A line for each target held back from the push, its agent outside the wire rule ({@code heldBack}: node to why). */
    static List<PushReport.NodeResult> heldBack(List<PushDecision.Target> targets, Map<String, String> heldBack) {
        return targets.stream().filter(t -> heldBack.containsKey(t.node().name()))
                .map(t -> new PushReport.NodeResult(t.node().name(), PushReport.Outcome.BEHIND, t.declaration().generation(),
                        t.leftBehind(), null, heldBack.get(t.node().name())))
                .toList();
    }

    /**
     * The builds the agents said they run, of those that answered; an agent from before builds were reported names
     * none, and counts as a build from before wire levels ({@link mesh.wire.Build#FIRST_WIRE}).
     */
    static Map<String, mesh.wire.Build> builds(Map<String, AgentAnswer<HostStatus>> statuses) {
        Map<String, mesh.wire.Build> builds = new LinkedHashMap<>();
        statuses.forEach((node, a) -> {
            if (a.ok() && a.value() != null) {
                builds.put(node, mesh.wire.WireRule.reported(a.value().build()));
            }
        });
        return builds;
    }

    /** The generations the agents said they hold, of those that answered. */
    static Map<String, Long> generations(Map<String, AgentAnswer<HostStatus>> statuses) {
        Map<String, Long> held = new LinkedHashMap<>();
        statuses.forEach((node, a) -> {
            if (a.ok() && a.value() != null) {
                held.put(node, a.value().generation());
            }
        });
        return held;
    }

    /** A note for each node that accepted another generation than planned. */
    static List<String> acceptedNotes(List<PushDecision.Target> targets, Map<String, AgentAnswer<Accepted>> answers) {
        List<String> notes = new ArrayList<>();
        for (PushDecision.Target t : targets) {
            AgentAnswer<Accepted> a = answers.get(t.node().name());
            if (a.ok() && a.value() != null) {
                PushDecision.acceptedNote(t, a.value().generation()).ifPresent(notes::add);
            }
        }
        return notes;
    }

    /** An agent's plan counted as the budget's judge ({@link PushDecision#judge}) takes it. */
    static PushDecision.Counts counted(PlanView plan) {
        mesh.wire.PlanCounts c = mesh.wire.PlanCounts.of(plan);
        return new PushDecision.Counts(c.create(), c.replace(), c.remove(), c.unchanged());
    }
}
