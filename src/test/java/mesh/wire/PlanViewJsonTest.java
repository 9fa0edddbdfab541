package mesh.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import mesh.model.DeclarationJson;
import org.junit.jupiter.api.Test;

/**
 * PlanViewJsonTest: a replaced component's {@code cutover} is in the JSON only when true, and a replace without it (a
 * stop-first one, or one an agent from before cutovers wrote) reads through the strict mapper as stop-first. A
 * primitive there was refused as "Cannot map `null` into type `boolean`" and every push that replaced a container
 * said its agent "answered something unreadable" (LogsIT in CI).
 */
class PlanViewJsonTest {

    @Test
    void aStopFirstReplaceIsWrittenAsBeforeAndReadBackAsStopFirst() throws Exception {
        PlanView.Replaced stopFirst = new PlanView.Replaced("web.server", "web", List.of("image"));
        String json = DeclarationJson.MAPPER.writeValueAsString(stopFirst);
        assertEquals("{\"fields\":[\"image\"],\"module\":\"web\",\"name\":\"web.server\"}", json);
        PlanView.Replaced read = DeclarationJson.MAPPER.readValue(json, PlanView.Replaced.class);
        assertFalse(read.cutsOver());
        assertEquals(stopFirst, read);
    }

    @Test
    void aCutoverIsWrittenAndReadBack() throws Exception {
        PlanView.Replaced cutover = new PlanView.Replaced("web.server", "web", List.of("image"), true);
        String json = DeclarationJson.MAPPER.writeValueAsString(cutover);
        assertEquals("{\"cutover\":true,\"fields\":[\"image\"],\"module\":\"web\",\"name\":\"web.server\"}", json);
        assertTrue(DeclarationJson.MAPPER.readValue(json, PlanView.Replaced.class).cutsOver());
        assertEquals(new PlanView.Replaced("a", "m", List.of(), false), new PlanView.Replaced("a", "m", List.of()),
                "false and absent are one value");
    }

    @Test
    void aWholePlanViewWithAReplaceReadsThroughTheStrictMapper() throws Exception {
        String agentBeforeCutovers = "{\"summary\":\"replace 1\",\"create\":[],\"replace\":[{\"name\":\"logweb.app\","
                + "\"module\":\"logweb\",\"fields\":[\"env\"]}],\"start\":[],\"remove\":[],\"unchanged\":1}";
        PlanView v = DeclarationJson.MAPPER.readValue(agentBeforeCutovers, PlanView.class);
        assertFalse(v.replace().get(0).cutsOver());
    }
}
