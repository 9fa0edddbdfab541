package mesh.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class VersionBeforeBootTest {

    /** What picocli itself prints for the top command's version option (no subcommands needed for it). */
    private static String picocliVersion(String option) {
        CommandLine.Command top = MeshCommand.class.getAnnotation(CommandLine.Command.class);
        assertTrue(top.mixinStandardHelpOptions(), "the top command's --version and -V are picocli's standard ones");
        CommandLine cli = new CommandLine(CommandLine.Model.CommandSpec.create()
                .mixinStandardHelpOptions(true)
                .versionProvider(new MeshVersion()));
        assertEquals(MeshVersion.class, top.versionProvider());
        StringWriter out = new StringWriter();
        cli.setOut(new PrintWriter(out));
        assertEquals(0, cli.execute(option));
        return out.toString().replace(System.lineSeparator(), "\n");
    }

    private static String answered(String... args) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        assertTrue(VersionBeforeBoot.answered(args, new PrintStream(bytes, true, StandardCharsets.UTF_8)));
        return bytes.toString(StandardCharsets.UTF_8).replace(System.lineSeparator(), "\n");
    }

    @Test
    void aBareVersionOptionPrintsWhatPicocliPrints() {
        assertEquals(picocliVersion("--version"), answered("--version"));
        assertEquals(picocliVersion("-V"), answered("-V"));
        assertTrue(answered("--version").matches("mesh \\d+\\.\\d+\\.\\d+.*\n"), answered("--version"));
    }

    @Test
    void anythingElseIsLeftToPicocli() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        for (String[] args : new String[][] {{}, {"--help"}, {"--version", "status"}, {"status", "--version"},
                {"-o", "json", "--version"}, {"--versions"}}) {
            assertFalse(VersionBeforeBoot.answered(args, out), String.join(" ", args));
        }
        assertEquals("", bytes.toString(StandardCharsets.UTF_8));
    }
}
