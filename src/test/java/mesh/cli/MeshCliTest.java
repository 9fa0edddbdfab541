package mesh.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.main.Launch;
import io.quarkus.test.junit.main.LaunchResult;
import io.quarkus.test.junit.main.QuarkusMainLauncher;
import io.quarkus.test.junit.main.QuarkusMainTest;
import java.util.List;
import org.junit.jupiter.api.Test;

@QuarkusMainTest
class MeshCliTest {

    @Test
    @Launch("--version")
    void versionPrintsTheVersion(LaunchResult result) {
        assertTrue(result.getOutput().matches("mesh \\d+\\.\\d+\\.\\d+.*"), result.getOutput());
    }

    @Test
    @Launch("--help")
    void helpListsTheVerbsThatExist(LaunchResult result) {
        assertTrue(result.getOutput().contains("host"), result.getOutput());
        assertTrue(result.getOutput().contains("Exit codes"), result.getOutput());
    }

    /** mesh help VERB through the booted path (Quarkus's factory makes picocli's help verb too). */
    @Test
    @Launch({"help", "push"})
    void helpOfAVerbPrintsItsUsage(LaunchResult result) {
        assertTrue(result.getOutput().startsWith("Usage: mesh push "), result.getOutput());
        assertTrue(result.getOutput().contains("Examples:"), result.getOutput());
    }

    @Test
    void aBareMeshPrintsItsUsageAndATypoGetsDidYouMean(QuarkusMainLauncher launcher) {
        LaunchResult bare = launcher.launch();
        assertEquals(ExitCodes.USAGE, bare.exitCode());
        assertTrue(bare.getErrorOutput().startsWith("Usage: mesh "), bare.getErrorOutput());
        LaunchResult typo = launcher.launch("nodes", "list");
        assertEquals(ExitCodes.USAGE, typo.exitCode());
        assertEquals(List.of("mesh: 'nodes' is no verb of mesh; did you mean 'node'? (see 'mesh --help')"),
                typo.getErrorOutput().lines().toList());
        LaunchResult version = launcher.launch("push", "--version");
        assertEquals(ExitCodes.OK, version.exitCode());
        assertTrue(version.getOutput().matches("mesh \\d+\\.\\d+\\.\\d+.*"), version.getOutput());
    }

    @Test
    void anUnknownVerbIsAUsageErrorInOneLine(QuarkusMainLauncher launcher) {
        LaunchResult result = launcher.launch("nosuchverb");
        assertEquals(ExitCodes.USAGE, result.exitCode());
        assertEquals(List.of("mesh: 'nosuchverb' is no verb of mesh (see 'mesh --help')"),
                result.getErrorOutput().lines().toList());
    }

    /** mesh secret set: a value on the command line is refused before any call, and never echoed back. */
    @Test
    void aSecretValueOnTheCommandLineIsAUsageErrorThatDoesNotRepeatIt(QuarkusMainLauncher launcher) {
        LaunchResult result = launcher.launch("secret", "set", "web", "db-password", "hunter2");
        assertEquals(ExitCodes.USAGE, result.exitCode());
        assertTrue(result.getErrorOutput().contains("mesh secret set takes no value on the command line"), result.getErrorOutput());
        assertTrue(result.getErrorOutput().contains("nothing was set"), result.getErrorOutput());
        assertFalse(result.getErrorOutput().contains("hunter2"), result.getErrorOutput());
    }

    @Test
    void aBadFlagIsAUsageError(QuarkusMainLauncher launcher) {
        LaunchResult result = launcher.launch("host", "history", "--no-such-flag");
        assertEquals(ExitCodes.USAGE, result.exitCode());
        assertTrue(result.getErrorOutput().startsWith("mesh: Unknown option: '--no-such-flag'"), result.getErrorOutput());
    }

    /** mesh rollback: a PUSH that is not a push's id, none, or --list with one, are usage errors named before any call. */
    @Test
    void rollbackRefusesABadPushOrMixedOptionsAsAUsageErrorNamingIt(QuarkusMainLauncher launcher) {
        for (String[] args : List.of(new String[] {"rollback", "latest"}, new String[] {"rollback", "0"},
                new String[] {"rollback", "-3"}, new String[] {"rollback"}, new String[] {"rollback", "--list", "5"},
                new String[] {"rollback", "5", "--dry-run", "--wait"}, new String[] {"rollback", "5", "--wait-timeout", "10"},
                new String[] {"rollback", "--list", "--wait-timeout", "10"})) {
            LaunchResult result = launcher.launch(args);
            assertEquals(ExitCodes.USAGE, result.exitCode(), String.join(" ", args) + ": " + result.getErrorOutput());
            String err = result.getErrorOutput();
            assertTrue(err.startsWith("mesh: ") && (err.contains("PUSH") || err.contains("--list") || err.contains("--wait")
                    || err.contains("Unknown option")), String.join(" ", args) + ": " + err);
        }
        assertTrue(launcher.launch("rollback", "5", "--wait-timeout", "10").getErrorOutput().contains("--wait-timeout needs --wait"));
        LaunchResult word = launcher.launch("rollback", "latest");
        assertTrue(word.getErrorOutput().contains("PUSH is a push's id, a number as 'mesh rollback --list' shows it; got 'latest'"),
                word.getErrorOutput());
    }

    @Test
    @Launch({"rollback", "--help"})
    void rollbackHelpTeachesWhatItRestoresAndWhatNot(LaunchResult result) {
        String help = result.getOutput();
        for (String says : List.of("PUSH", "--list", "--dry-run", "--yes", "Data is never rolled back", "last 50 pushes",
                "removed since")) {
            assertTrue(help.contains(says), says + " in: " + help);
        }
    }

    @Test
    void aBadDeclarationFileFailsWithExitOneAndNamesTheProblem(QuarkusMainLauncher launcher) throws Exception {
        java.nio.file.Path file = java.nio.file.Files.createTempFile("decl", ".json");
        java.nio.file.Files.writeString(file, "{\"node\":\"n1\",\"generation\":1,\"components\":[{\"module\":\"m\",\"name\":\"a\"}]}");
        LaunchResult result = launcher.launch("host", "apply", file.toString());
        assertEquals(ExitCodes.FAILED, result.exitCode());
        assertTrue(result.getErrorOutput().contains("component a: image: is required"), result.getErrorOutput());
    }

    /**
     * host apply takes a file like a push: the record is kept before the engine is asked, and a
     * generation not newer than it is refused with the agent API's message (no engine needed to see it).
     */
    @Test
    void hostApplyRecordsBeforeTheEngineAndRefusesAStaleGenerationLikeThePush(QuarkusMainLauncher launcher) throws Exception {
        java.nio.file.Path state = java.nio.file.Files.createTempDirectory("mesh-state");
        java.nio.file.Path config = java.nio.file.Files.writeString(state.resolve("host.env"),
                "MESH_HOST_STATE_DIR=" + state + "\nMESH_HOST_ENGINE=unix://" + state.resolve("no-engine.sock") + "\n");
        String body = "{\"node\":\"n1\",\"generation\":%d,\"components\":[{\"module\":\"m\",\"name\":\"a\",\"image\":\"%s\"}]}";
        java.nio.file.Path first = java.nio.file.Files.writeString(state.resolve("g1.json"), body.formatted(1, "x:1"));
        java.nio.file.Path other = java.nio.file.Files.writeString(state.resolve("g1-other.json"), body.formatted(1, "x:2"));

        LaunchResult recorded = launcher.launch("host", "apply", first.toString(), "--config", config.toString());
        assertEquals(ExitCodes.FAILED, recorded.exitCode());
        assertTrue(recorded.getErrorOutput().contains("mesh: generation 1 is recorded, but the engine did not answer: "),
                recorded.getErrorOutput());
        assertTrue(!recorded.getErrorOutput().contains("Exception"), "no Java type in: " + recorded.getErrorOutput());
        assertTrue(java.nio.file.Files.exists(state.resolve("declarations/000000000001.json")));

        LaunchResult stale = launcher.launch("host", "apply", other.toString(), "--config", config.toString());
        assertEquals(ExitCodes.FAILED, stale.exitCode());
        assertEquals(List.of("mesh: generation 1 is not newer than the last accepted, 1; nothing was changed"),
                stale.getErrorOutput().lines().toList());
        assertTrue(java.nio.file.Files.readString(state.resolve("declarations/000000000001.json")).contains("x:1"));
    }

    @Test
    void aBadSettingFailsWithExitOneAndNamesIt(QuarkusMainLauncher launcher) throws Exception {
        java.nio.file.Path config = java.nio.file.Files.createTempFile("mesh", ".conf");
        java.nio.file.Path state = java.nio.file.Files.createTempDirectory("mesh-state");
        java.nio.file.Files.writeString(config, "MESH_HOST_STATE_DIR=" + state + "\nMESH_HOST_PARALLELISM=zero\n");
        LaunchResult result = launcher.launch("host", "history", "--config", config.toString());
        assertEquals(ExitCodes.FAILED, result.exitCode());
        assertTrue(result.getErrorOutput().contains("mesh: MESH_HOST_PARALLELISM must be a number from 1 to 64, got 'zero'"),
                result.getErrorOutput());
        java.nio.file.Files.writeString(config, "MESH_HOST_STATE_DIR=" + state + "\nMESH_HOST_PARALLELISM=0\n");
        result = launcher.launch("host", "history", "--config", config.toString());
        assertEquals(ExitCodes.FAILED, result.exitCode());
        assertTrue(result.getErrorOutput().contains("mesh: MESH_HOST_PARALLELISM must be 1 to 64"), result.getErrorOutput());
    }

    /** MESH_HOST_ENGINE given as a bare path is named with the forms taken, not a NullPointerException. */
    @Test
    void anEngineThatIsNoAddressIsNamedWithTheFormsTaken(QuarkusMainLauncher launcher) throws Exception {
        java.nio.file.Path state = java.nio.file.Files.createTempDirectory("mesh-state");
        java.nio.file.Path config = java.nio.file.Files.writeString(state.resolve("host.env"),
                "MESH_HOST_STATE_DIR=" + state + "\nMESH_HOST_ENGINE=docker.sock\n");
        java.nio.file.Path file = java.nio.file.Files.writeString(state.resolve("decl.json"),
                "{\"node\":\"n1\",\"generation\":1,\"components\":[]}");
        LaunchResult result = launcher.launch("host", "apply", file.toString(), "--config", config.toString());
        assertEquals(ExitCodes.FAILED, result.exitCode());
        String err = result.getErrorOutput();
        assertTrue(err.contains("MESH_HOST_ENGINE") && err.contains("'docker.sock'") && err.contains("unix:///")
                && err.contains("tcp://host:port"), err);
        assertTrue(!err.contains("internal error") && !err.contains("Exception"), err);
        assertEquals(List.of("host.env", "decl.json"), java.nio.file.Files.list(state).map(p -> p.getFileName().toString())
                .sorted(java.util.Comparator.reverseOrder()).toList(), "nothing recorded");
    }

    /** A declaration file that cannot be read says why: the JDK's exception names only the path. */
    @Test
    void aMissingDeclarationFileSaysNoSuchFile(QuarkusMainLauncher launcher) throws Exception {
        java.nio.file.Path state = java.nio.file.Files.createTempDirectory("mesh-state");
        java.nio.file.Path config = java.nio.file.Files.writeString(state.resolve("host.env"), "MESH_HOST_STATE_DIR=" + state + "\n");
        String missing = state.resolve("nowhere.json").toString();
        LaunchResult result = launcher.launch("host", "apply", missing, "--config", config.toString());
        assertEquals(ExitCodes.FAILED, result.exitCode());
        assertEquals("mesh: cannot read " + missing + ": no such file", result.getErrorOutput().strip());
        result = launcher.launch("host", "apply", state.toString(), "--config", config.toString());
        assertEquals(ExitCodes.FAILED, result.exitCode());
        assertEquals("mesh: cannot read " + state + ": it is a folder, not a file", result.getErrorOutput().strip());
    }

    @Test
    void aWaitTimeoutBelowOneSecondIsRefusedBeforeAnythingIsSent(QuarkusMainLauncher launcher) {
        // a usage error (exit 2), as upgrade --timeout 0 is: one rule for every --timeout (FlagsAndDurationsTest)
        LaunchResult result = launcher.launch("push", "--wait", "--wait-timeout", "0");
        assertEquals(ExitCodes.USAGE, result.exitCode());
        assertTrue(result.getErrorOutput().contains("mesh: --wait-timeout: must be from 1s to 24h, got 0s"),
                result.getErrorOutput());
    }

    @Test
    void optionsThatNeedAnotherSaySoAsAUsageError(QuarkusMainLauncher launcher) {
        LaunchResult result = launcher.launch("push", "--wait-timeout", "5");
        assertEquals(ExitCodes.USAGE, result.exitCode());
        assertTrue(result.getErrorOutput().contains("mesh: --wait-timeout needs --wait"), result.getErrorOutput());
        result = launcher.launch("node", "token", "ace");
        assertEquals(ExitCodes.USAGE, result.exitCode());
        assertTrue(result.getErrorOutput().contains("needs --rotate"), result.getErrorOutput());
    }

    @Test
    void takeSaysWhichNamesItNeedsBeforeAnythingIsSent(QuarkusMainLauncher launcher) {
        LaunchResult result = launcher.launch("take", "web");
        assertEquals(ExitCodes.USAGE, result.exitCode());
        assertTrue(result.getErrorOutput().contains("give NODE and MODULE: mesh take NODE MODULE"), result.getErrorOutput());
        result = launcher.launch("take", "--back", "n2", "web");
        assertEquals(ExitCodes.USAGE, result.exitCode());
        assertTrue(result.getErrorOutput().contains("give only MODULE with --back"), result.getErrorOutput());
        result = launcher.launch("take", "--back", "--forget-old", "web");
        assertEquals(ExitCodes.USAGE, result.exitCode());
        assertTrue(result.getErrorOutput().contains("--back and --forget-old exclude each other"), result.getErrorOutput());
    }

    @Test
    void outputMayComeBeforeTheVerb(QuarkusMainLauncher launcher) {
        // no controller answers here: what matters is that -o json before the verb parses
        LaunchResult result = launcher.launch("-o", "json", "completion", "bash");
        assertEquals(ExitCodes.USAGE, result.exitCode(), "completion has no -o: " + result.getErrorOutput());
        assertTrue(result.getErrorOutput().contains("'-o'") || result.getErrorOutput().contains("-o"), result.getErrorOutput());
        result = launcher.launch("-o", "yaml", "status");
        assertEquals(ExitCodes.USAGE, result.exitCode());
        assertTrue(result.getErrorOutput().contains("yaml"), result.getErrorOutput());
    }

    @Test
    void completionPrintsABashScriptForEveryVerb(QuarkusMainLauncher launcher) {
        LaunchResult result = launcher.launch("completion", "bash");
        assertEquals(ExitCodes.OK, result.exitCode(), result.getErrorOutput());
        String script = result.getOutput();
        assertTrue(script.contains("complete -F"), "a bash completion script");
        assertTrue(script.contains("bashcompinit"), "usable from zsh");
        for (String verb : new String[] {"catalogue", "assign", "unassign", "push", "status", "roster", "token", "--refresh"}) {
            assertTrue(script.contains(verb), "completes " + verb);
        }
    }

    @Test
    void onlyTheServeVerbsListen() {
        assertEquals("false", ServeMode.forArgs("host", "apply", "x").properties(java.util.Map.of()).get("quarkus.http.host-enabled"));
        assertEquals("7701", ServeMode.forArgs("host", "serve").properties(java.util.Map.of("MESH_PLAIN_HTTP", "yes"))
                .get("quarkus.http.port"));
        assertEquals("127.0.0.1", ServeMode.forArgs("host", "serve", "--config", "f")
                .properties(java.util.Map.of("MESH_HOST_LISTEN", "127.0.0.1:9", "MESH_PLAIN_HTTP", "yes")).get("quarkus.http.host"));
        assertEquals(ServeMode.NONE, ServeMode.forArgs("--help", "host"));
    }

    @Test
    void hostHistoryShowsEachChangedFieldOldToNewWithTimesForPeopleAndExactInJson(QuarkusMainLauncher launcher)
            throws Exception {
        java.nio.file.Path state = java.nio.file.Files.createTempDirectory("mesh-history-values");
        java.nio.file.Path config = java.nio.file.Files.writeString(state.resolve("host.env"),
                "MESH_HOST_STATE_DIR=" + state + "\nMESH_HOST_ENGINE=unix://" + state.resolve("no-engine.sock") + "\n");
        String body = "{\"node\":\"n1\",\"generation\":%d,\"components\":[{\"module\":\"m\",\"name\":\"a\",\"image\":\"%s\","
                + "\"env\":{\"LEVEL\":\"%s\"}}]}";
        for (int g = 1; g <= 2; g++) {
            java.nio.file.Path file = java.nio.file.Files.writeString(state.resolve("g" + g + ".json"),
                    body.formatted(g, "x:" + g, g == 1 ? "info" : "debug"));
            launcher.launch("host", "apply", file.toString(), "--config", config.toString());   // recorded; no engine here
        }
        LaunchResult human = launcher.launch("host", "history", "1", "2", "--config", config.toString());
        assertEquals(ExitCodes.OK, human.exitCode(), human.getErrorOutput());
        List<String> lines = human.getOutput().lines().toList();
        assertTrue(lines.get(0).matches("from generation 1 \\(\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC, \\d+ s ago\\) to 2 .*"),
                lines.get(0));
        assertTrue(lines.contains("  changed  a: env, image"), human.getOutput());
        assertTrue(lines.contains("      image: x:1 -> x:2"), human.getOutput());
        assertTrue(lines.contains("      env: {\"LEVEL\":\"info\"} -> {\"LEVEL\":\"debug\"}"), human.getOutput());

        LaunchResult json = launcher.launch("host", "history", "1", "2", "-o", "json", "--config", config.toString());
        com.fasterxml.jackson.databind.JsonNode values = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(json.getOutput()).get("values").get("a");
        assertEquals("image", values.get(1).get("field").asText(), values.toString());
        assertEquals("x:1", values.get(1).get("before").asText(), values.toString());
        assertEquals("x:2", values.get(1).get("after").asText(), values.toString());

        LaunchResult list = launcher.launch("host", "history", "-o", "json", "--config", config.toString());
        String exact = new com.fasterxml.jackson.databind.ObjectMapper().readTree(list.getOutput()).get(0).get("receivedAt").asText();
        assertTrue(exact.matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d+Z"), "-o json keeps the exact instant: " + exact);
        LaunchResult table = launcher.launch("host", "history", "--config", config.toString());
        assertTrue(table.getOutput().contains(" UTC, "), table.getOutput());
        assertTrue(!table.getOutput().contains(exact), "people get seconds, not nanoseconds: " + table.getOutput());
        // each generation says it came from its file on this node, in words and in JSON
        assertTrue(table.getOutput().lines().anyMatch(l -> l.startsWith("2 ") && l.endsWith(
                "from file " + state.resolve("g2.json") + " on this node (mesh host apply)")), table.getOutput());
        assertEquals(state.resolve("g1.json").toString(),
                new com.fasterxml.jackson.databind.ObjectMapper().readTree(list.getOutput()).get(0).get("file").asText());
    }
}
