package mesh.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

/**
 * MeshCommandLineTest: a run that names a verb gets a tree of that verb alone, a run that reads the
 * whole tree gets it whole, and a verb's own help and parse errors read the same in both.
 */
class MeshCommandLineTest {

    @ParameterizedTest
    @CsvSource({
        "'node list',                node",
        "'push --dry-run -o json',   push",
        "'host apply f.json',        host",
        "'take --back web',          take",
    })
    void aRunThatNamesAVerbBuildsThatVerbAlone(String args, String verb) {
        CommandLine cmd = MeshCommandLine.forArgs(CommandLine.defaultFactory(), args.split(" "));
        assertEquals(List.of(verb), List.copyOf(cmd.getSubcommands().keySet()));
    }

    @ParameterizedTest
    @CsvSource({"--help", "-h", "--version", "nosuch", "completion bash", "''"})
    void aRunThatReadsTheWholeTreeGetsEveryVerb(String args) {
        CommandLine cmd = MeshCommandLine.forArgs(CommandLine.defaultFactory(), args.isEmpty() ? new String[0] : args.split(" "));
        assertEquals(MeshCommandLine.VERBS.size(), cmd.getSubcommands().size());
    }

    @Test
    void everyVerbIsFoundByItsNameAndReadsTheSameAloneAsInTheWholeTree() {
        CommandLine whole = MeshCommandLine.create(CommandLine.defaultFactory());
        for (var verb : whole.getSubcommands().entrySet()) {
            CommandLine alone = MeshCommandLine.forArgs(CommandLine.defaultFactory(), verb.getKey()).getSubcommands().get(verb.getKey());
            assertEquals(verb.getValue().getUsageMessage(), alone.getUsageMessage(), verb.getKey());
            assertEquals(run(whole, verb.getKey(), "--no-such-option"), run(alone.getParent(), verb.getKey(), "--no-such-option"), verb.getKey());
        }
    }

    private static String run(CommandLine root, String... args) {
        StringWriter err = new StringWriter();
        root.setErr(new PrintWriter(err));
        int exit = root.execute(args);
        return exit + " " + err;
    }
}
