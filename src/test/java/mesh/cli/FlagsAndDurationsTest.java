package mesh.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

/**
 * FlagsAndDurationsTest: a flag's value refused in the operator's words (no Java type), one duration syntax and one
 * {@code --timeout} for every verb that waits (its old name still read), {@code -n/--tail} for both logs verbs, the local
 * host verbs all reading the installed agent's settings, files that cannot be read said in words, the operator's config
 * file checked, and an upgrade from a controller older than build reporting told what to do. Each refusal is run
 * through the real command tree, and checked to have changed nothing.
 */
class FlagsAndDurationsTest {

    static CliRun run(String... args) {
        return CliRun.of(args);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "logs web --tail 5m              | mesh: --tail: '5m' is not a whole number (see 'mesh logs --help')",
        "logs web -n ten                 | mesh: --tail: 'ten' is not a whole number (see 'mesh logs --help')",
        "host logs c --tail x            | mesh: --tail: 'x' is not a whole number (see 'mesh host logs --help')",
        "host logs c --lines 1.5         | mesh: --lines: '1.5' is not a whole number (see 'mesh host logs --help')",
        "logs web --tail 99999999999     | mesh: --tail: '99999999999' is too large a number (see 'mesh logs --help')",
        "status -o yaml                  | mesh: --output: 'yaml' is not one of text, json (see 'mesh status --help')",
        "push --wait --timeout 5x        | mesh: --timeout: '5x' is not a duration like 30s, 5m, 1h or 1h30m (a bare number is seconds) (see 'mesh push --help')",
        "upgrade --timeout soon          | mesh: --timeout: 'soon' is not a duration like 30s, 5m, 1h or 1h30m (a bare number is seconds) (see 'mesh upgrade --help')",
        "push --dry-run=maybe            | mesh: --dry-run: expected yes or no, got 'maybe' (see 'mesh push --help')",
        "status --refresh maybe          | mesh: 'maybe' is not an argument of mesh status (see 'mesh status --help')",
        "host history abc                | mesh: 'abc' is not an argument of mesh host history (see 'mesh host history --help')",
        "nosuchverb                      | mesh: 'nosuchverb' is no verb of mesh (see 'mesh --help')",
    })
    void aValueThatCannotBeReadIsSaidInTheOperatorsWordsAsAUsageError(String args, String expected) {
        CliRun r = run(args.split(" +"));
        assertEquals(ExitCodes.USAGE, r.exit(), r.err());
        assertEquals(expected, r.err().strip());
        assertFalse(r.err().matches("(?s).*(not an int|not a long|not a boolean|Invalid value|java\\.).*"), r.err());
        assertEquals("", r.out());
    }

    /** push --wait --timeout 0 and upgrade --timeout 0 end alike: a usage error (exit 2) naming the bounds, before any call. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "push --wait --timeout 0              | mesh: --timeout: must be from 1s to 24h, got 0s (see 'mesh push --help')",
        "push --wait --wait-timeout 0         | mesh: --wait-timeout: must be from 1s to 24h, got 0s (see 'mesh push --help')",
        "rollback 5 --wait --timeout 500ms    | mesh: --timeout: must be from 1s to 24h, got 500ms (see 'mesh rollback --help')",
        "backup web --wait --timeout 2d       | mesh: --timeout: must be from 1s to 24h, got 48h (see 'mesh backup --help')",
        "upgrade --timeout 0                  | mesh: --timeout: must be from 1s to 24h, got 0s (see 'mesh upgrade --help')",
        "upgrade --timeout 25h                | mesh: --timeout: must be from 1s to 24h, got 25h (see 'mesh upgrade --help')",
        "push --timeout 5m                    | mesh: --timeout needs --wait (see 'mesh push --help')",
        "push --wait-timeout 300              | mesh: --wait-timeout needs --wait (see 'mesh push --help')",
        "backup web --timeout 1h              | mesh: --timeout needs --wait (see 'mesh backup --help')",
        "push --wait --timeout 1m --wait-timeout 60 | mesh: --timeout is given twice (--wait-timeout is its old name) (see 'mesh push --help')",
        "host logs c --tail 1 --lines 2       | mesh: --tail is given twice (--lines is its old name) (see 'mesh host logs --help')",
        "host logs c -n -1                    | mesh: --tail: must be 0 or more, got -1 (see 'mesh host logs --help')",
    })
    void aTimeoutOrTailOutOfBoundsIsAUsageErrorBeforeAnyCall(String args, String expected) {
        // MESH_CONTROLLER is not set here: a verb that got as far as asking would fail on the default controller
        CliRun r = run(args.split(" +"));
        assertEquals(ExitCodes.USAGE, r.exit(), r.err());
        assertEquals(expected, r.err().strip());
        assertEquals("", r.out());
    }

    @Test
    void theOldNamesStillParseAndAreHiddenFromTheHelp() {
        CommandLine push = new CommandLine(PushCommand.class);
        OperatorValues.register(push);
        push.parseArgs("--wait", "--wait-timeout", "90");
        assertEquals(java.time.Duration.ofSeconds(90), ((PushCommand) push.getCommand()).waitTimeout);
        push.parseArgs("--wait", "--timeout", "1h30m");
        assertEquals(java.time.Duration.ofMinutes(90), ((PushCommand) push.getCommand()).timeout);
        push.parseArgs("--dry-run=yes");
        assertTrue(((PushCommand) push.getCommand()).dryRun);
        String help = push.getUsageMessage();
        assertTrue(help.contains("--timeout=DURATION"), help);
        assertFalse(help.contains("--wait-timeout"), help);
        CommandLine logs = new CommandLine(HostLogsCommand.class);
        assertTrue(logs.getUsageMessage().contains("-n, --tail=N"), logs.getUsageMessage());
        assertFalse(logs.getUsageMessage().contains("--lines"), logs.getUsageMessage());
        assertTrue(logs.getUsageMessage().contains("-o, --output"), logs.getUsageMessage());
    }

    /** host logs: --tail (and its old name --lines) and -o json, each line as 'mesh logs -o json' prints a process's. */
    @Test
    void hostLogsTakesTailAndJson(@TempDir Path state) throws IOException {
        Path config = Files.writeString(state.resolve("host.env"), "MESH_HOST_STATE_DIR=" + state + "\n");
        Files.createDirectories(state.resolve("logs"));
        Files.writeString(state.resolve("logs/web.serve.log"), "one\ntwo\nthree \"quoted\"\n");

        CliRun json = run("host", "logs", "web.serve", "--config", config.toString(), "-n", "2", "-o", "json");
        assertEquals(ExitCodes.OK, json.exit(), json.err());
        assertEquals(List.of("{\"component\":\"web.serve\",\"stream\":\"output\",\"time\":null,\"line\":\"two\"}",
                "{\"component\":\"web.serve\",\"stream\":\"output\",\"time\":null,\"line\":\"three \\\"quoted\\\"\"}"),
                json.out().lines().toList());
        CliRun old = run("host", "logs", "web.serve", "--config", config.toString(), "--lines", "1");
        assertEquals(ExitCodes.OK, old.exit(), old.err());
        assertEquals(List.of("three \"quoted\""), old.out().lines().toList());
        assertEquals("one\ntwo\nthree \"quoted\"\n", Files.readString(state.resolve("logs/web.serve.log")));
    }

    /** host apply reads the installed agent's settings as history and logs do: DIR/host.env with --config-dir. */
    @Test
    void hostApplyReadsTheAgentsSettingsFromItsConfigDir(@TempDir Path dir) throws IOException {
        Path state = Files.createDirectories(dir.resolve("state"));
        Files.writeString(dir.resolve("host.env"), "MESH_HOST_STATE_DIR=" + state + "\nMESH_HOST_ENGINE=unix://"
                + dir.resolve("no-engine.sock") + "\n");
        Path decl = Files.writeString(dir.resolve("g1.json"),
                "{\"node\":\"n1\",\"generation\":1,\"components\":[{\"module\":\"m\",\"name\":\"a\",\"image\":\"x:1\"}]}");

        CliRun applied = run("host", "apply", decl.toString(), "--config-dir", dir.toString());
        assertEquals(ExitCodes.FAILED, applied.exit(), applied.err());
        assertTrue(applied.err().startsWith("mesh: generation 1 is recorded, but the engine did not answer: "), applied.err());
        assertTrue(Files.exists(state.resolve("declarations/000000000001.json")), "recorded in the state dir host.env names");

        Path nowhere = dir.resolve("nowhere");
        CliRun missing = run("host", "apply", decl.toString(), "--config-dir", nowhere.toString());
        assertEquals(ExitCodes.FAILED, missing.exit());
        assertEquals("mesh: " + nowhere.resolve("host.env") + " does not exist: 'mesh install' writes the agent's settings there"
                + " (--config-dir is the folder install was given, default /etc/mesh)", missing.err().strip());
    }

    @Test
    void aMissingOrUnreadableFileIsSaidInWords(@TempDir Path dir) {
        Path none = dir.resolve("none.env");
        assertEquals("cannot read config file " + none + ": no such file",
                assertThrows(VerbFailure.class, () -> ConfigFile.read(none)).getMessage());
        assertEquals("cannot read config file " + dir + ": it is a folder, not a file",
                assertThrows(VerbFailure.class, () -> ConfigFile.read(dir)).getMessage());
        Path pem = dir.resolve("ca.pem");
        ControllerClient client = new ControllerClient(Map.of("MESH_CONTROLLER", "https://127.0.0.1:9", "MESH_TOKEN", "t",
                "MESH_CA", pem.toString()));
        assertEquals("MESH_CA: cannot read a PEM certificate from " + pem + " (no such file)",
                assertThrows(VerbFailure.class, () -> client.api().nodes()).getMessage());
        assertEquals("MESH_CA: cannot read a PEM certificate from " + pem + " (no such file)",
                assertThrows(VerbFailure.class, client::caHash).getMessage());
    }

    @Test
    void aTypoInTheOperatorsConfigFileIsRefusedNamingTheLineAndTheKeyMeant(@TempDir Path home) throws IOException {
        Path file = config(home, "# mine\nMESH_CONTROLER=https://10.0.0.1:7700\nMESH_TOKEN=t\nEDITOR=vi\n");
        VerbFailure refused = assertThrows(VerbFailure.class, () -> ControllerClient.withConfigFile(Map.of("HOME", home.toString())));
        assertEquals(file + ":2: MESH_CONTROLER is no setting of the mesh CLI (did you mean MESH_CONTROLLER?)\n  "
                + file + ":4: EDITOR is no setting of the mesh CLI\n  the file holds MESH_CONTROLLER, MESH_TOKEN, MESH_CA alone;"
                + " mend it, or set MESH_CONTROLLER and MESH_TOKEN in the environment", refused.getMessage());
        assertEquals("# mine\nMESH_CONTROLER=https://10.0.0.1:7700\nMESH_TOKEN=t\nEDITOR=vi\n", Files.readString(file));
    }

    @Test
    void anOperatorsConfigFileOthersMayReadIsRefusedSayingChmod(@TempDir Path home) throws IOException {
        Path file = config(home, "MESH_CONTROLLER=https://10.0.0.1:7700\nMESH_TOKEN=t\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        VerbFailure refused = assertThrows(VerbFailure.class, () -> ControllerClient.withConfigFile(Map.of("HOME", home.toString())));
        assertEquals(file + " may be read by others than its owner (mode 0644), and it holds the operator token: run"
                + " 'chmod 600 " + file + "', then again", refused.getMessage());
        assertEquals("rw-r--r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        assertEquals("t", ControllerClient.withConfigFile(Map.of("HOME", home.toString())).get("MESH_TOKEN"));
    }

    @Test
    void controllerUrlErrorsNameWhereTheUrlCameFrom(@TempDir Path home) throws IOException {
        int closed;
        try (var s = new java.net.ServerSocket(0)) {
            closed = s.getLocalPort();
        }
        Path file = config(home, "MESH_CONTROLLER=http://127.0.0.1:" + closed + "\nMESH_TOKEN=t\n");
        Map<String, String> env = Map.of("HOME", home.toString());
        assertEquals("MESH_CONTROLLER from " + file, ControllerClient.urlFrom(env));
        mesh.wire.CallFailure unreachable = assertThrows(mesh.wire.CallFailure.class,
                () -> new ControllerClient(ControllerClient.withConfigFile(env), ControllerClient.urlFrom(env)).api().nodes());
        assertTrue(unreachable.getMessage().startsWith("cannot reach the controller at http://127.0.0.1:" + closed + " ("),
                unreachable.getMessage());
        assertTrue(unreachable.getMessage().endsWith("); is 'mesh controller serve' running, and is MESH_CONTROLLER right"
                + " (MESH_CONTROLLER from " + file + ")?"), unreachable.getMessage());

        config(home, "MESH_CONTROLLER=ftp://x\nMESH_TOKEN=t\n");
        assertEquals("MESH_CONTROLLER: an http(s) URL like http://HOST:7700 is needed, got 'ftp://x' (MESH_CONTROLLER from "
                + file + ") (the scheme must be http or https)", assertThrows(VerbFailure.class,
                () -> new ControllerClient(ControllerClient.withConfigFile(env), ControllerClient.urlFrom(env))).getMessage());

        config(home, "MESH_TOKEN=t\n");
        assertEquals("the default URL: MESH_CONTROLLER is set neither in the environment nor in " + file,
                ControllerClient.urlFrom(env));
        assertEquals("MESH_CONTROLLER from the environment", ControllerClient.urlFrom(Map.of("HOME", home.toString(),
                "MESH_CONTROLLER", "http://h:7700", "MESH_TOKEN", "t")));
        assertEquals("the default URL: MESH_CONTROLLER is set neither in the environment nor in " + file
                + " (not read: MESH_TOKEN is in the environment)", ControllerClient.urlFrom(Map.of("HOME", home.toString(),
                "MESH_TOKEN", "t")));
    }

    /** mesh upgrade against a controller from before build reporting: which builds it moves, and what to do instead. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "with its reason     | {\"error\":\"no such call: GET /v1/mesh/build\",\"reason\":\"NO_SUCH_CALL\"}",
        "from before reasons | {\"error\":\"no such call: GET /v1/mesh/build\"}",
    })
    void anUpgradeOfAControllerOlderThanBuildReportingSaysWhatToDo(String name, String body) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        List<String> asked = new java.util.ArrayList<>();
        server.createContext("/", exchange -> {
            asked.add(exchange.getRequestMethod() + " " + exchange.getRequestURI().getPath());
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(404, bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        });
        server.start();
        try {
            String url = "http://127.0.0.1:" + server.getAddress().getPort();
            UpgradeRun upgrade = new UpgradeRun(new ControllerClient(Map.of("MESH_CONTROLLER", url, "MESH_TOKEN", "t")), line -> {
            });
            VerbFailure f = assertThrows(VerbFailure.class, () -> upgrade.plan(List.of()));
            assertEquals("the controller at " + url + " runs a mesh older than build reporting (it has no GET /v1/mesh/build),"
                    + " which 'mesh upgrade' cannot move: it moves a mesh whose controller says its build, a build from 2 December"
                    + " 2026 on (commit f5de2fe), whose 'mesh --version' names its commit, as 'mesh 0.1.0 (4f70c7e1a2b3)'. Nothing"
                    + " was changed. Move an older mesh by installing this build over it, node by node: 'mesh uninstall' (with"
                    + " the old build; it keeps the node's volumes and the install's secrets), then 'mesh install' with this"
                    + " build on the same machine, which brings the same mesh back (docs/cli.md, \"uninstall\")", f.getMessage());
            assertEquals(List.of("GET /v1/mesh/build"), asked, "nothing asked or sent after the build");
        } finally {
            server.stop(0);
        }
    }

    private static Path config(Path home, String text) throws IOException {
        Path file = home.resolve(".config/mesh/config");
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        return file;
    }
}
