package mesh.plan;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import mesh.model.ComponentSpec;
import mesh.model.Declaration;
import mesh.model.DeclarationJson;
import mesh.model.EdgeTable;
import mesh.model.Node;
import mesh.model.PushOrigin;
import mesh.model.Specs;
import mesh.plan.PushDecision.Reason;
import mesh.plan.PushDecision.Target;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** PushDecisionTest: each reason a node is sent or left as it is, and the budget, on plain values. */
class PushDecisionTest {

    static final Node ACE = new Node("ace", "10.77.0.12", "http://10.77.0.12:7701", null);
    static final Node G14 = new Node("g14", "10.77.0.13", "http://10.77.0.13:7701", null);
    static final ComponentSpec WEB = Specs.component("web.server").build();
    static final ComponentSpec WEB2 = Specs.component("web.server").image("mesh-test/busybox:2").build();
    /** ace runs web, g14 runs nothing. */
    static final MeshPlan PLAN = new MeshPlan(Map.of(), Map.of("ace", List.of(WEB), "g14", List.of()));

    /** What a node acknowledged: {@code components} at {@code acked}, and {@code last} the highest generation sent. */
    static PushDecision.Sent sent(Node node, long last, long acked, ComponentSpec... components) {
        String content = acked == 0 ? null
                : DeclarationJson.write(new Declaration(node.name(), node.address(), 0, List.of(components)));
        return new PushDecision.Sent(node, last, acked, content);
    }

    static PushDecision.Choice choose(Map<String, Long> agents, List<String> named, PushDecision.Sent... sent) {
        return PushDecision.choose(PushDecision.drafts(PLAN, List.of(sent)), agents, named);
    }

    static Target only(PushDecision.Choice c) {
        assertEquals(1, c.targets().size(), c.toString());
        return c.targets().get(0);
    }

    @Test
    void aNodeThatNeverAcknowledgedIsSentAsChangedNumberedAfterTheHighestSent() {
        PushDecision.Choice c = choose(Map.of(), List.of(), sent(ACE, 2, 0), sent(G14, 4, 4));
        Target ace = only(c);
        assertEquals(Reason.CHANGED, ace.reason());
        assertEquals(3, ace.declaration().generation());
        assertEquals(List.of(WEB), ace.declaration().components());
        assertFalse(ace.leftBehind());
        assertEquals(List.of("g14"), c.unchanged());
        assertEquals(List.of(), c.notes());
    }

    @Test
    void aNodeWhosePlanDiffersFromWhatItAcknowledgedIsSentAsChanged() {
        Target ace = only(choose(Map.of(), List.of(), sent(ACE, 5, 5, WEB2), sent(G14, 1, 1)));
        assertEquals(Reason.CHANGED, ace.reason());
        assertEquals(6, ace.declaration().generation());
    }

    @Test
    void aNodeThatAcknowledgedItsPlanAndWhoseAgentAgreesIsLeftAsItIs() {
        PushDecision.Choice c = choose(Map.of("ace", 5L, "g14", 1L), List.of(), sent(ACE, 5, 5, WEB), sent(G14, 1, 1));
        assertEquals(List.of(), c.targets());
        assertEquals(List.of("ace", "g14"), c.unchanged());
    }

    @Test
    void aChangedNodesAgentGenerationDoesNotMatterItIsSentForItsChange() {
        // every agent is asked (for its build too, mesh.wire.WireRule); a changed node's answer changes nothing
        PushDecision.Choice c = choose(Map.of("ace", 99L, "g14", 1L), List.of(), sent(ACE, 5, 5, WEB2), sent(G14, 1, 1));
        assertEquals(Reason.CHANGED, only(c).reason());
        assertEquals(List.of(), c.notes());
        assertEquals(List.of("g14"), c.unchanged());
    }

    @Test
    void aNodeNotNamedButDifferingIsLeftBehindAndSentToo() {
        PushDecision.Choice c = choose(Map.of(), List.of("g14"), sent(ACE, 1, 1, WEB2), sent(G14, 1, 1));
        Target ace = only(c);
        assertEquals(Reason.LEFT_BEHIND, ace.reason());
        assertTrue(ace.leftBehind());
        assertEquals(List.of("this push left ace behind: their declarations differ from what they acknowledged; "
                + "sending them too"), c.notes());
    }

    @Test
    void aPushOfTheNamedNodesAloneLeavesEveryOtherAsItRunsEvenWhenItDiffersOrIsAheadOfTheStore() {
        // a rebuilt seat's first push: g14 names the seat; ace differs from the store's older plan and its agent is ahead
        PushDecision.Choice all = choose(Map.of("ace", 9L), List.of("g14"), sent(ACE, 5, 5, WEB2), sent(G14, 0, 0));
        assertEquals(List.of("ace", "g14"), all.targets().stream().map(t -> t.node().name()).toList());
        PushDecision.Choice c = all.onlyFor(List.of("g14"));
        assertEquals("g14", only(c).node().name());
        assertEquals(List.of("ace"), c.unchanged());
        assertEquals(List.of("left as they run: ace (this push sends g14 alone)"), c.notes());
        assertEquals(all, all.onlyFor(null));
    }

    @Test
    void aNamedNodeThatDiffersIsChangedNotLeftBehind() {
        Target ace = only(choose(Map.of(), List.of("ace"), sent(ACE, 1, 1, WEB2), sent(G14, 1, 1)));
        assertEquals(Reason.CHANGED, ace.reason());
        assertFalse(ace.leftBehind());
    }

    @Test
    void anAgentOlderThanItAcknowledgedLostItsRecordsAndIsSentAgain() {
        PushDecision.Choice c = choose(Map.of("ace", 0L), List.of(), sent(ACE, 3, 3, WEB), sent(G14, 1, 1));
        Target ace = only(c);
        assertEquals(Reason.LOST_RECORDS, ace.reason());
        assertEquals(4, ace.declaration().generation());
        assertEquals(List.of("node ace's agent holds generation 0, older than the 3 it acknowledged (its records were lost?): "
                + "sending its declaration again"), c.notes());
    }

    @Test
    void anAgentNewerThanItAcknowledgedIsAheadOfTheStoreAndIsSentAgain() {
        PushDecision.Choice c = choose(Map.of("ace", 7L), List.of("g14"), sent(ACE, 3, 3, WEB), sent(G14, 1, 1));
        Target ace = only(c);
        assertEquals(Reason.AHEAD_OF_STORE, ace.reason());
        assertTrue(ace.leftBehind(), "not named");
        assertEquals(List.of("node ace's agent holds generation 7, newer than the 3 it acknowledged (a lost commit or a "
                + "restored store?): sending its declaration again"), c.notes());
    }

    @Test
    void anAgentThatDidNotAnswerIsLeftAsItIs() {
        PushDecision.Choice c = choose(Map.of(), List.of(), sent(ACE, 3, 3, WEB), sent(G14, 1, 1));
        assertEquals(List.of(), c.targets());
        assertEquals(List.of("ace", "g14"), c.unchanged());
    }

    @Test
    void anAgentThatRefusedAsNotNewerGetsTheSameContentNumberedAfterItsNewest() {
        Declaration sent = new Declaration("ace", "10.77.0.12", 4, List.of(WEB));
        assertEquals(Optional.of(new Declaration("ace", "10.77.0.12", 10, List.of(WEB))), PushDecision.resend(sent, 9));
        assertEquals(Optional.of(new Declaration("ace", "10.77.0.12", 5, List.of(WEB))), PushDecision.resend(sent, 4));
        assertEquals(Optional.empty(), PushDecision.resend(sent, 3), "an older agent's refusal stands");
    }

    @Test
    void aResendKeepsThePushsName() {
        Declaration sent = new Declaration("ace", "10.77.0.12", 4, List.of(WEB)).withPush(PushOrigin.of(42, "alice"));
        assertEquals(Optional.of(PushOrigin.of(42, "alice")), PushDecision.resend(sent, 9).map(Declaration::push));
    }

    /** The old agent's record: a declaration's fields before pushes were named, read as strictly as it reads them. */
    record OlderDeclaration(String node, String address, long generation, List<ComponentSpec> components,
                            String registry, EdgeTable edge) {
    }

    @Test
    void anOlderAgentThatRefusesTheNameGetsTheDeclarationWithoutIt() {
        Declaration named = new Declaration("ace", "10.77.0.12", 4, List.of(WEB)).withPush(PushOrigin.of(42, "alice"));
        // what an agent older than named pushes answers (400), made by its own strict reading
        com.fasterxml.jackson.core.JsonProcessingException e = assertThrows(com.fasterxml.jackson.core.JsonProcessingException.class,
                () -> DeclarationJson.MAPPER.readValue(DeclarationJson.write(named), OlderDeclaration.class));
        String refusal = "node ace's agent refused (400): " + DeclarationJson.describe(e);
        // its refusal carries no reason: reasons came after named pushes
        Declaration again = PushDecision.unnamed(named, 400, false).orElseThrow(() -> new AssertionError(refusal));
        assertEquals(named.withPush(null), again);
        assertEquals(new OlderDeclaration("ace", "10.77.0.12", 4, List.of(WEB), null, null),
                assertDoesNotThrow(() -> DeclarationJson.MAPPER.readValue(DeclarationJson.write(again), OlderDeclaration.class)),
                "the older agent reads what is sent again");

        assertEquals(Optional.empty(), PushDecision.unnamed(named, 409, false), "only a 400");
        assertEquals(Optional.empty(), PushDecision.unnamed(named, 400, true),
                "an agent that gives reasons knows named pushes: its 400 is about something else");
        assertEquals(Optional.empty(), PushDecision.unnamed(again, 400, false), "a declaration without a name is not sent again");
    }

    @Test
    void aNodeThatAcceptedAnotherGenerationThanPlannedIsNoted() {
        Target ace = only(choose(Map.of(), List.of(), sent(ACE, 3, 0), sent(G14, 1, 1)));
        assertEquals(Optional.empty(), PushDecision.acceptedNote(ace, 4));
        assertEquals(Optional.of("node ace had accepted generation 9, which the store did not record; sent as 10"),
                PushDecision.acceptedNote(ace, 10));
    }

    @Test
    void unknownNamedNodesAreNamed() {
        assertEquals(Optional.empty(), PushDecision.unknownNodes(List.of("ace"), List.of(ACE, G14)));
        assertEquals(Optional.of("unknown node nope"), PushDecision.unknownNodes(List.of("ace", "nope"), List.of(ACE)));
        assertEquals(Optional.of("unknown nodes nope, nada"), PushDecision.unknownNodes(List.of("nope", "nada"), List.of(ACE)));
    }

    static PushDecision.Counts replaces(int n) {
        return new PushDecision.Counts(0, n, 0, 0);
    }

    static PushDecision.Counts removes(int n) {
        return new PushDecision.Counts(0, 0, n, 1);
    }

    @Test
    void aPushOverTheBudgetIsRefusedSayingHowToGoAhead() {
        PushDecision.Verdict v = PushDecision.judge(List.of(replaces(2), replaces(1)), 2, false, false);
        assertEquals(3, v.replacements());
        assertEquals(Optional.of("this push would replace 3 containers, more than the budget of 2 (the budget counts"
                + " replacements and removals together: 3 replaced, 0 removed); look with "
                + "'mesh push --dry-run', then run again with --yes"), v.refusal());
    }

    /** Budget cases: each node's counts, the budget; refused or not, and the verb the refusal uses. */
    static Stream<Arguments> budgets() {
        return Stream.of(
                Arguments.of(List.of(removes(40)), 10, "would remove 40 containers"),
                Arguments.of(List.of(replaces(2), removes(1)), 2,
                        "would replace or remove 3 containers, more than the budget of 2 (the budget counts replacements and"
                                + " removals together: 2 replaced, 1 removed)"),
                Arguments.of(List.of(replaces(1), removes(1)), 2, null),
                Arguments.of(List.of(new PushDecision.Counts(30, 0, 0, 5)), 2, null),
                Arguments.of(List.of(removes(3)), 2, "would remove 3 containers"));
    }

    @ParameterizedTest(name = "{0}, budget {1}: {2}")
    @MethodSource("budgets")
    void removalsCountInTheBudgetWithReplacements(List<PushDecision.Counts> previews, int budget, String refusal) {
        PushDecision.Verdict v = PushDecision.judge(previews, budget, false, false);
        assertEquals(PushDecision.Counts.sum(previews), v.total());
        assertEquals(refusal != null, v.refusal().isPresent(), v.toString());
        v.refusal().ifPresent(m -> assertTrue(m.contains(refusal), m));
        assertEquals(Optional.empty(), PushDecision.judge(previews, budget, false, true).refusal(), "--yes goes ahead");
        assertEquals(Optional.empty(), PushDecision.judge(previews, budget, true, false).refusal(), "a dry run is never refused");
    }

    @Test
    void aPushAtTheBudgetGoesAhead() {
        assertEquals(new PushDecision.Verdict(replaces(2), Optional.empty()),
                PushDecision.judge(List.of(replaces(1), replaces(1)), 2, false, false));
    }

    @Test
    void yesGoesPastTheBudget() {
        assertEquals(new PushDecision.Verdict(replaces(5), Optional.empty()), PushDecision.judge(List.of(replaces(5)), 2, false, true));
    }

    @Test
    void aDryRunOverTheBudgetIsNotRefusedAndCountsTheReplacements() {
        assertEquals(new PushDecision.Verdict(replaces(5), Optional.empty()), PushDecision.judge(List.of(replaces(5)), 2, true, false));
    }
}
