package mesh.plan;

import mesh.model.TakeStep;

import com.fasterxml.jackson.core.JsonProcessingException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import mesh.model.ComponentSpec;
import mesh.model.Declaration;
import mesh.model.DeclarationJson;
import mesh.model.EdgeTable;
import mesh.model.Node;

/**
 * PushDecision is what {@code mesh push} decides, apart from what it does: which nodes to send and
 * why, what to tell the operator, and whether the push may go ahead. Plain values in, plain values
 * out; the controller gathers them (store, agents), asks, sends and records. Two steps, because the
 * previews the budget is judged on need a call to every agent in between: {@link #choose}, then
 * {@link #judge}.
 */
public final class PushDecision {

    private PushDecision() {
    }

    /** Reason is why a node is sent. */
    public enum Reason {
        /** Its planned declaration differs from the one it acknowledged, and it was named (or none were). */
        CHANGED,
        /** Not named, but its planned declaration differs from the one it acknowledged: sent too. */
        LEFT_BEHIND,
        /** Its agent holds an older generation than it acknowledged: its records were lost. */
        LOST_RECORDS,
        /** Its agent holds a newer generation than it acknowledged: a lost commit or a restored store. */
        AHEAD_OF_STORE
    }

    /** Sent is where a node's pushes stand in the store: the highest generation sent, and what it acknowledged. */
    public record Sent(Node node, long lastGeneration, long ackedGeneration, String ackedDeclaration) {
    }

    /**
     * Draft is one node's planned declaration, numbered after the highest generation sent to it.
     *
     * @param content the declaration as JSON without its generation, as the store keeps what was acknowledged
     * @param changed it differs from what the node acknowledged (or it never acknowledged anything)
     */
    public record Draft(Node node, Declaration declaration, String content, boolean changed, long ackedGeneration) {
    }

    /** Target is one node to send, with why; {@code leftBehind} when names were given and it is not one of them. */
    public record Target(Node node, Declaration declaration, String content, Reason reason, boolean leftBehind) {
    }

    /** Choice is the nodes to send, those left as they are (names), and notes for the operator. */
    public record Choice(List<Target> targets, List<String> unchanged, List<String> notes) {

        /** This choice without the targets on {@code nodes} (held back from the push: mesh.wire.WireRule). */
        public Choice without(java.util.Set<String> nodes) {
            return new Choice(targets.stream().filter(t -> !nodes.contains(t.node().name())).toList(), unchanged, notes);
        }

        /**
         * This choice sending the nodes of {@code named} alone (all of it when null): every other target is left as it
         * runs, listed with the unchanged and said in a note. A rebuilt seat's first push sends the seat only: the
         * other agents hold what they ran after the state backup, and the store's older plan must not replace it.
         */
        public Choice onlyFor(List<String> named) {
            if (named == null) {
                return this;
            }
            List<String> left = targets.stream().map(t -> t.node().name()).filter(n -> !named.contains(n)).toList();
            if (left.isEmpty()) {
                return this;
            }
            List<String> kept = new ArrayList<>(unchanged);
            kept.addAll(left);
            List<String> said = new ArrayList<>(notes.stream().filter(n -> !n.startsWith("this push left ")).toList());
            said.add("left as they run: " + String.join(", ", left) + " (this push sends " + String.join(", ", named)
                    + " alone)");
            return new Choice(targets.stream().filter(t -> named.contains(t.node().name())).toList(), kept, said);
        }
    }

    /**
     * Counts is what one node's plan (or a push's, summed) does to containers: created, replaced,
     * removed, and left as they are (started ones count as left: they are not recreated).
     */
    public record Counts(int create, int replace, int remove, int unchanged) {

        public static final Counts NONE = new Counts(0, 0, 0, 0);

        /** What the budget counts: replacements and removals together, each a container that stops. */
        public int stopped() {
            return replace + remove;
        }

        public Counts plus(Counts o) {
            return new Counts(create + o.create, replace + o.replace, remove + o.remove, unchanged + o.unchanged);
        }

        public static Counts sum(Collection<Counts> each) {
            return each.stream().reduce(NONE, Counts::plus);
        }
    }

    /** Verdict is what a push does (or would) to containers, summed over the nodes sent, and, when it must not go ahead, why. */
    public record Verdict(Counts total, Optional<String> refusal) {

        public int replacements() {
            return total.replace();
        }

        public int removals() {
            return total.remove();
        }
    }

    /** The refusal for named nodes the store does not know, if any. */
    public static Optional<String> unknownNodes(Collection<String> named, Collection<Node> nodes) {
        List<String> unknown = named.stream().filter(n -> nodes.stream().noneMatch(x -> x.name().equals(n))).toList();
        return unknown.isEmpty() ? Optional.empty()
                : Optional.of("unknown node" + (unknown.size() > 1 ? "s " : " ") + String.join(", ", unknown));
    }

    /** Each node's planned declaration beside what it acknowledged. */
    public static List<Draft> drafts(MeshPlan plan, List<Sent> sent) {
        List<Draft> drafts = new ArrayList<>();
        for (Sent s : sent) {
            Node node = s.node();
            List<ComponentSpec> components = plan.nodes().getOrDefault(node.name(), List.of());
            EdgeTable edge = plan.edges().get(node.name());
            String registry = plan.registryFor(components);
            // what the store keeps: each secret as its reference and keyed hash, never its value (docs/trust.md)
            String content = DeclarationJson.write(new Declaration(node.name(), node.address(), 0, components, registry, edge)
                    .withoutSecretValues());
            Declaration next = new Declaration(node.name(), node.address(), s.lastGeneration() + 1, components, registry, edge);
            boolean same = s.ackedGeneration() > 0 && sameJson(content, s.ackedDeclaration());
            drafts.add(new Draft(node, next, content, !same, s.ackedGeneration()));
        }
        return drafts;
    }

    /**
     * Step one: the nodes to send. Each whose declaration changed, named or not; and each whose
     * agent holds another generation than it acknowledged. {@code agentGenerations} holds the
     * answers of the agents (a changed node's is not used); one that did not answer is missing and left as it is
     * (the question must not fail a push).
     */
    public static Choice choose(List<Draft> drafts, Map<String, Long> agentGenerations, List<String> named) {
        List<Target> targets = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        List<String> behind = new ArrayList<>();
        for (Draft d : drafts) {
            boolean left = !named.isEmpty() && !named.contains(d.node().name());
            if (d.changed()) {
                targets.add(new Target(d.node(), d.declaration(), d.content(), left ? Reason.LEFT_BEHIND : Reason.CHANGED, left));
                if (left) {
                    behind.add(d.node().name());
                }
            }
        }
        List<String> unchanged = new ArrayList<>();
        for (Draft d : drafts) {
            Long held = agentGenerations.get(d.node().name());
            if (d.changed()) {
                continue;
            }
            if (held == null || held == d.ackedGeneration()) {
                unchanged.add(d.node().name());
                continue;
            }
            long acked = d.ackedGeneration();
            boolean older = held < acked;
            notes.add("node " + d.node().name() + "'s agent holds generation " + held + ", "
                    + (older ? "older than the " + acked + " it acknowledged (its records were lost?)"
                            : "newer than the " + acked + " it acknowledged (a lost commit or a restored store?)")
                    + ": sending its declaration again");
            boolean left = !named.isEmpty() && !named.contains(d.node().name());
            targets.add(new Target(d.node(), d.declaration(), d.content(),
                    older ? Reason.LOST_RECORDS : Reason.AHEAD_OF_STORE, left));
        }
        if (!behind.isEmpty()) {
            notes.add("this push left " + String.join(", ", behind)
                    + " behind: their declarations differ from what they acknowledged; sending them too");
        }
        return new Choice(targets, unchanged, notes);
    }

    /**
     * Step two: the previews summed (each agent's counts of what it would create, replace, remove and
     * leave), and the refusal when the containers they stop, replaced and removed together, exceed
     * the budget: one push once removed 40 components under a preview that said "would replace 0". A
     * dry run or {@code --yes} is never refused; a preview that failed is not among them.
     */
    public static Verdict judge(Collection<Counts> previews, int budget, boolean dryRun, boolean yes) {
        Counts total = Counts.sum(previews);
        if (dryRun || yes || total.stopped() <= budget) {
            return new Verdict(total, Optional.empty());
        }
        String verb = total.remove() == 0 ? "replace" : total.replace() == 0 ? "remove" : "replace or remove";
        return new Verdict(total, Optional.of("this push would " + verb + " " + total.stopped()
                + " containers, more than the budget of " + budget + " (the budget counts replacements and removals together: "
                + total.replace() + " replaced, " + total.remove() + " removed); look with 'mesh push --dry-run', then run"
                + " again with --yes"));
    }

    /**
     * The declaration to send again after an agent refused {@code sent} as not newer (409): it has
     * accepted one this store does not know of (a push whose commit was lost, a store restored from
     * a backup). Generations only grow, so it is the same content numbered after the agent's
     * newest. Empty when the agent's newest is older than what was sent: then the refusal stands.
     */
    public static Optional<Declaration> resend(Declaration sent, long agentNewest) {
        if (agentNewest < sent.generation()) {
            return Optional.empty();
        }
        return Optional.of(new Declaration(sent.node(), sent.address(), agentNewest + 1, sent.components(), sent.registry(),
                sent.edge(), sent.push()));
    }

    /**
     * The declaration to send again when an agent may have refused {@code sent} for naming its push: an
     * agent of a mesh older than named pushes reads declarations strictly and answers 400 (unknown field
     * 'push'), and, being older than refusal reasons too, gives no reason ({@code reasonGiven} false). It
     * gets the same declaration without the name (its records then do not say who pushed); if its 400 was
     * for something else, it refuses that again, having changed nothing. Empty for an agent that gives
     * reasons (it knows named pushes), for any other status, and for a declaration that names no push.
     */
    public static Optional<Declaration> unnamed(Declaration sent, int status, boolean reasonGiven) {
        if (sent.push() == null || status != 400 || reasonGiven) {
            return Optional.empty();
        }
        return Optional.of(sent.withPush(null));
    }

    /** The note when a node accepted another generation than planned (it was sent again, numbered after its newest). */
    public static Optional<String> acceptedNote(Target t, long accepted) {
        if (accepted == t.declaration().generation()) {
            return Optional.empty();
        }
        return Optional.of("node " + t.node().name() + " had accepted generation " + (accepted - 1)
                + ", which the store did not record; sent as " + accepted);
    }

    /**
     * The refusal of a push while a take starts its module on the target: the target runs a declaration the
     * store's placements do not plan yet (docs/take.md), which a push would undo. The take's own pushes come
     * after its switch, or in its rollback, when the store plans the target right again. Empty: no take starts.
     */
    public static Optional<String> whileATakeStarts(List<Take> running) {
        return running.stream().filter(t -> t.step() == TakeStep.START).findFirst()
                .map(t -> "a " + (t.restoring() ? "restore" : "take") + " of module " + t.module() + " is starting it on " + t.to()
                        + "; push when it has switched ('mesh status' shows it)");
    }

    /**
     * A push's notes, in order: those that lead it (a rollback's), what the data will meet ({@code data}: a
     * rollback's), the choice's, and each of the mesh's own modules a dry run would be refused for.
     */
    public static List<String> notes(List<String> lead, List<String> data, Choice choice, List<String> protect) {
        List<String> notes = new ArrayList<>(lead);
        notes.addAll(data);
        notes.addAll(choice.notes());
        protect.forEach(m -> notes.add("without --dry-run this push is refused: " + m));
        return notes;
    }

    private static boolean sameJson(String a, String b) {
        try {
            return b != null && DeclarationJson.MAPPER.readTree(a).equals(DeclarationJson.MAPPER.readTree(b));
        } catch (JsonProcessingException e) {
            return false;
        }
    }
}
