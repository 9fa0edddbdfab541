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

    /** A push report's JSON carries each count beside the fields it had, none renamed (docs/cli.md, push). */
    @Test
    void aPushReportCarriesItsCountsPerNodeAndInAll() throws Exception {
        PlanView plan = new PlanView("1 to remove, 3 unchanged", List.of(), List.of(), List.of(), List.of("mesh-store.postgres"), 3);
        PushReport r = new PushReport(true, 0, List.of(new PushReport.NodeResult("n1", PushReport.Outcome.WOULD_SEND, 4, false,
                plan, null)), List.of());
        com.fasterxml.jackson.databind.JsonNode json = DeclarationJson.MAPPER.readTree(DeclarationJson.write(r));
        assertEquals(0, json.get("replacements").asInt());
        assertEquals(1, json.get("removals").asInt());
        com.fasterxml.jackson.databind.JsonNode totals = json.get("totals");
        assertEquals(List.of(0, 0, 1, 3), List.of(totals.get("create").asInt(), totals.get("replace").asInt(),
                totals.get("remove").asInt(), totals.get("unchanged").asInt()));
        assertEquals(json.get("totals"), json.get("nodes").get(0).get("counts"));
        assertEquals(List.of("mesh-store.postgres"), List.of(json.get("nodes").get(0).get("plan").get("remove").get(0).asText()));
        PushReport back = DeclarationJson.MAPPER.readValue(DeclarationJson.write(r), PushReport.class);
        assertEquals(r, back);
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
    void anAgentsCertificateExpiryIsAnOptionalInstantBothWays() throws Exception {
        HostStatus tls = new HostStatus("ace", 3, 3, true, null, null, List.of())
                .withCertificateNotAfter(java.time.Instant.parse("2027-11-30T12:00:00Z"));
        String json = DeclarationJson.write(tls);
        assertEquals(true, json.contains("\"certificateNotAfter\":\"2027-11-30T12:00:00Z\""), json);
        assertEquals(tls, DeclarationJson.MAPPER.readValue(json, HostStatus.class));

        HostStatus plain = new HostStatus("ace", 3, 3, true, null, null, List.of());
        assertEquals(false, DeclarationJson.write(plain).contains("certificateNotAfter"), "plain HTTP reports nothing");
        // an agent older than the field: its status still reads, with no expiry
        HostStatus old = DeclarationJson.MAPPER.readValue("{\"node\":\"ace\",\"generation\":3,\"appliedGeneration\":3,"
                + "\"converged\":true,\"components\":[],\"judgedGeneration\":3}", HostStatus.class);
        assertEquals(null, old.certificateNotAfter());
        assertEquals(3, old.appliedGeneration());
        // and the controller passes it on in the node's status
        NodeStatus node = new NodeStatus(new NodeView("ace", "10.0.0.1", "https://10.0.0.1:7701", null, 3, 3, null), tls,
                null, true, "ok");
        assertEquals("2027-11-30T12:00:00Z", DeclarationJson.MAPPER.readValue(DeclarationJson.write(node), NodeStatus.class)
                .agent().certificateNotAfter());
    }

    @Test
    void anAgentsBuildAndANodesLastHeardBuildAreOptionalBothWays() throws Exception {
        Build build = new Build("0.2.0", "7200bac816ba");
        HostStatus status = new HostStatus("ace", 3, 3, true, null, null, List.of()).withBuild(build);
        String json = DeclarationJson.write(status);
        assertEquals(true, json.contains("\"build\":{\"commit\":\"7200bac816ba\",\"version\":\"0.2.0\"}"), json);
        assertEquals(status, DeclarationJson.MAPPER.readValue(json, HostStatus.class));
        // an agent older than the field: its status reads, naming no build
        HostStatus old = DeclarationJson.MAPPER.readValue("{\"node\":\"ace\",\"generation\":3,\"appliedGeneration\":3,"
                + "\"converged\":true,\"components\":[],\"judgedGeneration\":3}", HostStatus.class);
        assertEquals(null, old.build());

        NodeView heard = new NodeView("ace", "10.0.0.1", "https://10.0.0.1:7701", null, 3, 3, null, build);
        assertEquals(heard, DeclarationJson.MAPPER.readValue(DeclarationJson.write(heard), NodeView.class));
        NodeView older = DeclarationJson.MAPPER.readValue("{\"name\":\"ace\",\"address\":\"10.0.0.1\","
                + "\"agent\":\"https://10.0.0.1:7701\",\"generation\":3,\"ackedGeneration\":3}", NodeView.class);
        assertEquals(null, older.agentBuild(), "a controller older than the field names none");
    }

    @Test
    void aBuildsWireLevelIsOptionalAndABuildWithoutOneIsAtTheFirstLevel() throws Exception {
        Build leveled = new Build("0.3.0", "7200bac816ba", 2);
        String json = DeclarationJson.write(leveled);
        assertEquals("{\"commit\":\"7200bac816ba\",\"version\":\"0.3.0\",\"wire\":2}", json);
        assertEquals(leveled, DeclarationJson.MAPPER.readValue(json, Build.class));
        Build older = DeclarationJson.MAPPER.readValue("{\"commit\":\"4f70c7e1a2b3\",\"version\":\"0.1.0\"}", Build.class);
        assertEquals(null, older.wire());
        assertEquals(Build.FIRST_WIRE, older.wireLevel());
    }

    @Test
    void thisBuildHasItsVersionAndACommitOfTwelveHexDigitsOrNone() {
        Build current = Build.current();
        assertEquals(true, current.version().matches("\\d+\\.\\d+\\.\\d+.*"), current.toString());
        assertEquals(true, current.commit() == null || current.commit().matches("[0-9a-f]{12}"), current.toString());
        assertEquals(current.commit() == null ? current.version() : current.version() + " (" + current.commit() + ")",
                current.words());
        assertEquals(true, current.wire() != null && current.wire() >= Build.FIRST_WIRE, "the build names its wire level: " + current);
    }

    @Test
    void aRefusalBodyIsDecodedOrNullWhenItIsNotOne() {
        assertEquals(new ApiError("no", List.of("a", "b")), JsonHttp.apiError("{\"error\":\"no\",\"problems\":[\"a\",\"b\"]}"));
        assertEquals(null, JsonHttp.apiError("<html>bad gateway</html>"));
        assertEquals(null, JsonHttp.apiError(""));
    }

    /** A refusal carries its reason beside the message; a newer server's reason or field does not make it unreadable. */
    @Test
    void aRefusalsReasonIsReadAndANewerOnesIsOther() {
        ApiError written = new ApiError("generation 3 is not newer than the last accepted, 4", List.of(), Reason.NOT_NEWER);
        String json = DeclarationJson.write(written);
        assertEquals(true, json.startsWith("{\"error\":"), json);
        assertEquals(written, JsonHttp.apiError(json));
        assertEquals(Reason.OTHER, JsonHttp.apiError("{\"error\":\"no\",\"reason\":\"SOMETHING_NEW\",\"hint\":1}").reason());
        assertEquals(null, JsonHttp.apiError("{\"error\":\"no\",\"problems\":[]}").reason(), "a server from before reasons");
        assertEquals(Reason.NOT_FOUND, Reason.of(404));
        assertEquals(Reason.INVALID, Reason.of(400));
        assertEquals(Reason.OTHER, Reason.of(418));
    }
}
