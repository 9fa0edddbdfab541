package mesh.wire;

import mesh.model.ComponentState;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import mesh.model.DeclarationJson;
import org.junit.jupiter.api.Test;

/** WireJsonTest: the states that are enums in code are the same lower-case words in JSON (docs/cli.md), both ways. */
class WireJsonTest {

    @Test
    void pushOutcomesAreTheDocumentedWords() throws Exception {
        for (PushReport.Outcome o : PushReport.Outcome.values()) {
            String json = DeclarationJson.write(o);
            assertEquals(o, DeclarationJson.MAPPER.readValue(json, PushReport.Outcome.class));
        }
        assertEquals(List.of("\"sent\"", "\"unchanged\"", "\"behind\"", "\"would-send\""),
                List.of(PushReport.Outcome.values()).stream().map(DeclarationJson::write).toList());
        PushReport.NodeResult r = DeclarationJson.MAPPER.readValue(
                "{\"node\":\"ace\",\"outcome\":\"would-send\",\"generation\":3,\"leftBehind\":false}", PushReport.NodeResult.class);
        assertEquals(PushReport.Outcome.WOULD_SEND, r.outcome());
    }

    @Test
    void componentStatesAreTheDocumentedWords() throws Exception {
        assertEquals(List.of("\"running\"", "\"starting\"", "\"unhealthy\"", "\"crash-looping\"", "\"failing\"",
                        "\"stopped\"", "\"missing\"", "\"outdated\"", "\"fenced\""),
                List.of(ComponentState.values()).stream().map(DeclarationJson::write).toList());
        HostStatus.Component c = DeclarationJson.MAPPER.readValue("{\"name\":\"a\",\"module\":\"m\",\"state\":\"outdated\"}",
                HostStatus.Component.class);
        assertEquals(ComponentState.OUTDATED, c.state());
        assertEquals("outdated", c.state().toString(), "as messages show it");
        assertEquals(ComponentState.CRASH_LOOPING, DeclarationJson.MAPPER.readValue(
                "{\"name\":\"a\",\"module\":\"m\",\"state\":\"crash-looping\"}", HostStatus.Component.class).state());
    }

    @Test
    void aRefusalBodyIsDecodedOrNullWhenItIsNotOne() {
        assertEquals(new ApiError("no", List.of("a", "b")), JsonHttp.apiError("{\"error\":\"no\",\"problems\":[\"a\",\"b\"]}"));
        assertEquals(null, JsonHttp.apiError("<html>bad gateway</html>"));
        assertEquals(null, JsonHttp.apiError(""));
    }
}
