package mesh.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import mesh.testbed.PackagedMesh;
import org.junit.jupiter.api.Test;

/**
 * ReadmeIT: README.md, followed literally, works. It runs {@code scripts/readme-check}, which takes the
 * README's controller, operator, agent and push snippets as written (by their markers) and runs them in
 * that order with the packaged mesh on PATH, against the test bed: a controller on a database of its
 * own, node ace on test-bed node n2 with its agent in n2's namespace, the example module pushed with
 * {@code --wait} until it runs healthy, and {@code mesh status} exiting 0.
 */
class ReadmeIT {

    @Test
    void theReadmesSnippetsRunAsWritten() throws Exception {
        Path out = Files.createTempFile("readme-check", ".out");
        try {
            // appended (O_APPEND): the servers the snippets start in the background write to the same file
            ProcessBuilder builder = new ProcessBuilder("scripts/readme-check", PackagedMesh.app().toString())
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(out.toFile()))
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            builder.environment().keySet().removeIf(k -> k.startsWith("MESH_"));
            // the Java this test runs on runs the packaged mesh (the one on PATH may be older)
            builder.environment().put("JAVA", Path.of(System.getProperty("java.home"), "bin", "java").toString());
            Process p = builder.start();
            if (!p.waitFor(8, TimeUnit.MINUTES)) {
                p.descendants().forEach(ProcessHandle::destroy);
                p.destroy();
                p.waitFor(30, TimeUnit.SECONDS);
                throw new AssertionError("readme-check did not end in 8 minutes:\n" + Files.readString(out));
            }
            String output = Files.readString(out);
            assertEquals(0, p.exitValue(), output);
            List<String> steps = java.util.regex.Pattern.compile("== readme-check: \\w+").matcher(output).results()
                    .map(java.util.regex.MatchResult::group).toList();
            assertEquals(List.of("== readme-check: controller", "== readme-check: operator", "== readme-check: agent",
                    "== readme-check: push"), steps, output);
            assertTrue(output.contains("the declaration is for node 'novox'"), "the agent snippet's PUT is refused as the "
                    + "README says, by a started agent: " + output);
            assertTrue(output.contains("ace: converged at generation 1"), "push --wait saw ace run hello healthy: " + output);
            assertTrue(output.contains("up to date"), "mesh status: " + output);
            assertTrue(output.contains("readme-check: every snippet ran as written"), output);
        } finally {
            Files.deleteIfExists(out);
        }
    }
}
