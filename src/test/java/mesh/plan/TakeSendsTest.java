package mesh.plan;

import mesh.model.TakeStep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import mesh.model.Declaration;
import mesh.model.DeclarationJson;
import mesh.model.Node;
import mesh.model.PushOrigin;
import mesh.model.Specs;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * TakeSendsTest: what a take sends outside a push carries the content a push records (generation 0, no push name,
 * no secret values), whatever its generation; and a push is refused exactly while a take starts its module.
 */
class TakeSendsTest {

    static final Node N2 = new Node("n2", "10.77.0.12", "https://10.77.0.12:7701", null);

    static Stream<Arguments> declarations() {
        Declaration d = new Declaration("n2", "10.77.0.12", 7, List.of(Specs.component("web.server").module("web").build()));
        return Stream.of(Arguments.of(d), Arguments.of(d.withPush(PushOrigin.ofTake(9, "alice", "web", 3))),
                Arguments.of(new Declaration("n2", "10.77.0.12", 12, d.components())));
    }

    @ParameterizedTest
    @MethodSource("declarations")
    void theContentIsWhatAPushRecordsAsAcknowledged(Declaration d) throws Exception {
        TakeSends.Send s = TakeSends.start(N2, d);
        assertEquals(N2, s.node());
        assertEquals(d, s.declaration(), "the declaration is sent as it is");
        Declaration recorded = DeclarationJson.MAPPER.readValue(s.content(), Declaration.class);
        assertEquals(0, recorded.generation());
        assertEquals(null, recorded.push(), "the push's name is not part of what was acknowledged");
        assertEquals(d.components(), recorded.components());
        assertEquals(TakeSends.content(new Declaration(d.node(), d.address(), 1, d.components())), s.content(),
                "the generation does not change the content");
    }

    static Stream<Arguments> takes() {
        return Stream.of(
                Arguments.of(List.of(), Optional.empty()),
                Arguments.of(List.of(TakePlanTest.at(TakeStep.COPY)), Optional.empty()),
                Arguments.of(List.of(TakePlanTest.at(TakeStep.PUSH)), Optional.empty()),
                Arguments.of(List.of(TakePlanTest.at(TakeStep.COPY), TakePlanTest.at(TakeStep.START)),
                        Optional.of("a take of module " + TakePlanTest.at(TakeStep.START).module() + " is starting it on "
                                + TakePlanTest.at(TakeStep.START).to() + "; push when it has switched ('mesh status' shows it)")));
    }

    @ParameterizedTest
    @MethodSource("takes")
    void aPushIsRefusedWhileATakeStartsItsModule(List<Take> running, Optional<String> refusal) {
        assertEquals(refusal, PushDecision.whileATakeStarts(running));
    }

    @org.junit.jupiter.api.Test
    void notesComeInTheirOrder() {
        PushDecision.Choice none = PushDecision.choose(List.of(), java.util.Map.of(), List.of());
        List<String> notes = PushDecision.notes(List.of("rollback to push 7"), List.of("data is not rolled back"), none,
                List.of("mesh-store would stop"));
        assertEquals(List.of("rollback to push 7", "data is not rolled back",
                "without --dry-run this push is refused: mesh-store would stop"), notes);
        assertFalse(notes.isEmpty());
    }
}
