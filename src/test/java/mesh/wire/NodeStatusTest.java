package mesh.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import mesh.model.DeclarationJson;
import org.junit.jupiter.api.Test;

/** NodeStatusTest: each node carries exactly the takes that move a module off or onto it, with its part and the step. */
class NodeStatusTest {

    static NodeStatus node(String name) {
        return new NodeStatus(new NodeView(name, "10.77.0.1", "http://10.77.0.1:7701", null, 3, 3, null), null, null, true,
                "up to date");
    }

    static TakeView take(String module, String from, String to, String step) {
        return new TakeView(module, from, to, 7, false, mesh.model.TakeStep.of(step), mesh.model.OperationState.RUNNING, true, List.of(),
                new TakeView.Progress("data", 10, 2, 100, 5.0, 18), null, null, List.of(), List.of());
    }

    @Test
    void eachNodeCarriesTheTakesThatInvolveItWithItsPart() {
        List<TakeView> takes = List.of(take("web", "n1", "n2", "copy"), take("db", null, "n3", "start"));
        NodeStatus n1 = node("n1").withTakes(takes);
        NodeStatus n2 = node("n2").withTakes(takes);
        NodeStatus n3 = node("n3").withTakes(takes);
        NodeStatus n4 = node("n4").withTakes(takes);
        assertEquals(List.of("web source copy"), n1.takes().stream().map(t -> t.module() + " " + t.role() + " " + t.step()).toList());
        assertEquals(List.of("web target copy"), n2.takes().stream().map(t -> t.module() + " " + t.role() + " " + t.step()).toList());
        assertEquals(List.of("db target start"), n3.takes().stream().map(t -> t.module() + " " + t.role() + " " + t.step()).toList());
        assertEquals(List.of(), n4.takes());
        assertEquals(10, n2.takes().get(0).copy().bytes());
    }

    @Test
    void theTakesAreInTheJsonAndAnOlderControllersAnswerReadsAsNone() throws Exception {
        NodeStatus n2 = node("n2").withTakes(List.of(take("web", "n1", "n2", "verify")));
        String json = DeclarationJson.MAPPER.writeValueAsString(n2);
        NodeStatus back = DeclarationJson.MAPPER.readValue(json, NodeStatus.class);
        assertEquals(n2, back);
        assertEquals("verify", DeclarationJson.MAPPER.readTree(json).path("takes").get(0).path("step").asText(), json);
        String withoutTakes = DeclarationJson.MAPPER.writeValueAsString(node("n2")).replace(",\"takes\":[]", "");
        assertEquals(false, withoutTakes.contains("takes"), withoutTakes);
        NodeStatus older = DeclarationJson.MAPPER.readValue(withoutTakes, NodeStatus.class);
        assertEquals(List.of(), older.takes());
    }
}
