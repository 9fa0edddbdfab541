package mesh.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * HelpTextTest renders the help of every verb of the whole tree, groups and leaves, at the width mesh wraps at,
 * and holds it to the help conventions: a whole first sentence as each verb's summary, no line of a single
 * word (text wrapped twice), an example for every verb, a description for every positional parameter.
 */
class HelpTextTest {

    /** Every command of the tree under the top, the top included. */
    static List<CommandLine> everyVerb() {
        List<CommandLine> all = new ArrayList<>();
        Consumer<CommandLine>[] walk = new Consumer[1];
        walk[0] = cmd -> {
            all.add(cmd);
            cmd.getSubcommands().values().forEach(walk[0]);
        };
        walk[0].accept(MeshCommandLine.create(CommandLine.defaultFactory()));
        return all;
    }

    static String help(CommandLine cmd) {
        return cmd.getUsageMessage(CommandLine.Help.Ansi.OFF);
    }

    static String name(CommandLine cmd) {
        return cmd.getCommandSpec().qualifiedName();
    }

    @Test
    void everySummaryInACommandListIsAWholeSentence() {
        List<String> cut = new ArrayList<>();
        for (CommandLine cmd : everyVerb()) {
            for (CommandLine verb : cmd.getSubcommands().values()) {
                String summary = HelpLayout.summary(verb.getCommandSpec().usageMessage());
                if (!summary.endsWith(".") || summary.isBlank()) {
                    cut.add(name(verb) + ": " + summary);
                }
                assertTrue(help(cmd).contains(summary.substring(0, Math.min(summary.length(), 40))), name(verb));
            }
        }
        assertEquals(List.of(), cut);
    }

    @Test
    void theCommandListShowsTheWholeSummaryWrappedInItsColumn() {
        CommandLine top = MeshCommandLine.create(CommandLine.defaultFactory());
        String help = help(top);
        String summary = HelpLayout.summary(top.getSubcommands().get("take").getCommandSpec().usageMessage());
        String shown = help.substring(help.indexOf("  take ")).lines().takeWhile(l -> !l.matches("  \\S.*") || l.startsWith("  take "))
                .map(String::strip).reduce((a, b) -> a + " " + b).orElseThrow();
        assertEquals("take " + summary, shown.replaceAll(" +", " "));
    }

    @Test
    void noRenderedLineIsASingleWord() {
        List<String> lonely = new ArrayList<>();
        for (CommandLine cmd : everyVerb()) {
            for (String line : help(cmd).lines().toList()) {
                String text = line.strip();
                if (!text.isEmpty() && !text.contains(" ") && !text.endsWith(":")) {
                    lonely.add(name(cmd) + ": '" + line + "'");
                }
            }
        }
        assertEquals(List.of(), lonely);
    }

    /** A table's line keeps its layout only while it fits: picocli would wrap it to the left margin. */
    @Test
    void everyTableLineFitsTheWidth() {
        List<String> over = new ArrayList<>();
        for (CommandLine cmd : everyVerb()) {
            CommandLine.Model.UsageMessageSpec usage = cmd.getCommandSpec().usageMessage();
            for (String[] lines : List.of(usage.description(), usage.footer())) {
                for (String line : lines) {
                    if (line.startsWith("  ") && line.length() > HelpLayout.WIDTH) {
                        over.add(name(cmd) + ": " + line);
                    }
                }
            }
        }
        assertEquals(List.of(), over);
    }

    @Test
    void everyVerbHasAnExample() {
        List<String> without = new ArrayList<>();
        for (CommandLine cmd : everyVerb()) {
            String help = help(cmd);
            int examples = help.indexOf("\nExamples:\n");
            if (examples < 0 || help.substring(examples).lines().noneMatch(l -> l.startsWith("  mesh "))) {
                without.add(name(cmd));
            }
        }
        assertEquals(List.of(), without);
    }

    @Test
    void everyPositionalParameterIsDescribed() {
        List<String> bare = new ArrayList<>();
        for (CommandLine cmd : everyVerb()) {
            for (CommandLine.Model.PositionalParamSpec p : cmd.getCommandSpec().positionalParameters()) {
                if (!p.hidden() && String.join("", p.description()).isBlank()) {
                    bare.add(name(cmd) + " " + p.paramLabel());
                }
            }
        }
        assertEquals(List.of(), bare);
    }

    @Test
    void theTopHelpDefinesTheWordsTheVerbsUse() {
        String help = help(MeshCommandLine.create(CommandLine.defaultFactory()));
        assertTrue(help.contains("\nWords:\n"), help);
        for (String word : List.of("seat", "fence", "taken", "assigned", "declaration", "generation", "roster", "binds",
                "budget", "left behind", "pre-copy", "old copy")) {
            assertTrue(help.substring(help.indexOf("\nWords:\n")).contains("  " + word), word + " in: " + help);
        }
    }

    static CliRun run(String... args) {
        return CliRun.of(args);
    }

    @Test
    void aVerbAnswersVersionWithMeshsVersion() {
        String version = new MeshVersion().getVersion()[0];
        for (String[] args : List.of(new String[] {"push", "--version"}, new String[] {"node", "list", "-V"},
                new String[] {"host", "serve", "--version"}, new String[] {"backup", "list", "--version"})) {
            CliRun r = run(args);
            assertEquals(0, r.exit(), String.join(" ", args));
            assertEquals(List.of(version), r.out().lines().toList(), String.join(" ", args));
        }
    }

    @Test
    void aBareMeshOrGroupPrintsItsUsageAsAUsageError() {
        CliRun bare = run();
        assertEquals(ExitCodes.USAGE, bare.exit());
        assertTrue(bare.err().startsWith("Usage: mesh [-hV] [COMMAND]"), bare.err());
        assertTrue(bare.err().contains("  take "), bare.err());
        assertFalse(bare.err().contains("Missing required subcommand"), bare.err());
        CliRun node = run("node");
        assertEquals(ExitCodes.USAGE, node.exit());
        assertTrue(node.err().startsWith("Usage: mesh node "), node.err());
        assertFalse(node.err().contains("Missing required subcommand"), node.err());
    }

    @Test
    void helpOfAVerbIsItsUsage() {
        CliRun help = run("help", "push");
        assertEquals(0, help.exit(), help.err());
        assertEquals(help(MeshCommandLine.create(CommandLine.defaultFactory()).getSubcommands().get("push")), help.out());
        CliRun group = run("help", "node");
        assertTrue(group.out().startsWith("Usage: mesh node [-hV]"), group.out());
        CliRun nested = run("help", "node", "list");
        assertEquals(help(MeshCommandLine.create(CommandLine.defaultFactory()).getSubcommands().get("node")
                .getSubcommands().get("list")), nested.out());
        CliRun top = run("help");
        assertTrue(top.out().startsWith("Usage: mesh [-hV] [COMMAND]"), top.out());
        CliRun unknown = run("help", "nodes");
        assertEquals(ExitCodes.USAGE, unknown.exit());
        assertEquals(List.of("mesh: 'nodes' is no verb of mesh (see 'mesh help --help')"), unknown.err().lines().toList());
    }

    @Test
    void aNearTypoGetsDidYouMeanAndAFarOneDoesNot() {
        assertEquals(List.of("mesh: 'nodes' is no verb of mesh; did you mean 'node'? (see 'mesh --help')"),
                run("nodes", "list").err().lines().toList());
        assertEquals(List.of("mesh: 'lst' is no verb of mesh node; did you mean 'list'? (see 'mesh node --help')"),
                run("node", "lst").err().lines().toList());
        assertEquals(List.of("mesh: Unknown option: '--dry-rn'; did you mean '--dry-run'? (see 'mesh push --help')"),
                run("push", "--dry-rn").err().lines().toList());
        CliRun far = run("nosuchverb");
        assertEquals(ExitCodes.USAGE, far.exit());
        assertEquals(List.of("mesh: 'nosuchverb' is no verb of mesh (see 'mesh --help')"), far.err().lines().toList());
    }

    @Test
    void takeHelpSaysTheDataIsCopiedWhileTheModuleRunsAndRestoreThatToIsAnotherNode() {
        CommandLine top = MeshCommandLine.create(CommandLine.defaultFactory());
        String take = help(top.getSubcommands().get("take")).replaceAll("\\s+", " ");
        assertTrue(take.contains("pre-copy: copy every volume agent to agent while the module runs"), take);
        assertTrue(take.indexOf("pre-copy:") < take.indexOf("fence"), take);
        String restore = help(top.getSubcommands().get("restore")).replaceAll("\\s+", " ");
        assertFalse(restore.contains("default: the node it runs on"), restore);
        assertTrue(restore.contains("--to=NODE the node to restore it on: required, another node than the one it runs on"), restore);
    }

    /** The serve verbs as {@link MeshMain#main} runs them, in a JVM of their own: help, no TLS, no server. */
    @Test
    void theServeVerbsPrintTheirHelpWithoutTlsAndWithoutServing() throws Exception {
        for (String verb : List.of("host", "controller")) {
            assertEquals(ServeMode.NONE, ServeMode.forArgs(verb, "serve", "--help"));
            assertEquals(ServeMode.NONE, ServeMode.forArgs(verb, "serve", "--config", "f", "-V"));
            for (String plain : List.of("", "yes")) {
                ProcessBuilder pb = new ProcessBuilder(java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-cp", System.getProperty("java.class.path"), MeshMain.class.getName(), verb, "serve", "--help")
                        .redirectErrorStream(true).redirectOutput(java.io.File.createTempFile("serve-help", ".out"));
                pb.environment().keySet().removeIf(k -> k.startsWith("MESH_"));
                pb.environment().put("MESH_PLAIN_HTTP", plain);
                pb.environment().put("HOME", java.nio.file.Files.createTempDirectory("mesh-home").toString());
                Process p = pb.start();
                boolean ended = p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS);
                p.destroyForcibly();
                String out = java.nio.file.Files.readString(pb.redirectOutput().file().toPath());
                assertTrue(ended, verb + " serve --help still runs: " + out);
                assertEquals(0, p.exitValue(), verb + " serve --help, MESH_PLAIN_HTTP=" + plain + ": " + out);
                assertTrue(out.startsWith("Usage: mesh " + verb + " serve"), out);
                assertFalse(out.contains("MESH_TLS_CERT") && out.contains("serves HTTPS only"), out);
            }
        }
    }
}
