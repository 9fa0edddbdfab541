package mesh.testbed;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * OtherBuild is this repository built again by the test, at a commit and with Maven properties of its choosing (e.g.
 * {@code mesh.wire=3}: a build that stands for a later one), for a test that runs a mesh of more than one build. The
 * commit is checked out of this repository's own git into a clone (so the build names its commit, as a release does)
 * and packaged offline without tests, its JDK AOT caches trained; the app folder is kept under the temporary folder,
 * one per commit and properties, and reused by later runs: a build costs 1–3 minutes, once.
 */
public final class OtherBuild {

    private static final long BUILD_MINUTES = 15;

    private OtherBuild() {
    }

    /** This repository's HEAD commit (the one the packaged app was built from when the tree is clean). */
    public static String head() throws IOException, InterruptedException {
        return run(List.of("git", "rev-parse", "HEAD"), repository(), Path.of("/dev/null")).strip();
    }

    /**
     * The packaged app folder ({@code quarkus-app}) of {@code commit} built with {@code properties} ({@code -Dk=v}):
     * built the first time it is asked for, then reused. Fails the test naming the build's log when it does not build.
     */
    public static synchronized Path app(String commit, Map<String, String> properties) throws IOException, InterruptedException {
        Path repo = repository();
        String full = run(List.of("git", "rev-parse", "--verify", commit + "^{commit}"), repo, Path.of("/dev/null")).strip();
        Map<String, String> sorted = new TreeMap<>(properties);
        Path home = Path.of(System.getProperty("java.io.tmpdir"), "mesh-other-builds", full.substring(0, 12) + "-" + key(sorted));
        Path app = home.resolve("src/target/quarkus-app");
        if (Files.isRegularFile(home.resolve("built"))) {
            return app;
        }
        PackagedMesh.deleteTree(home);
        Files.createDirectories(home);
        Path log = home.resolve("build.log");
        run(List.of("git", "clone", "--quiet", "--no-checkout", "--shared", repo.toString(), home.resolve("src").toString()), home, log);
        run(List.of("git", "checkout", "--quiet", "--detach", full), home.resolve("src"), log);
        List<String> mvn = new ArrayList<>(List.of("./mvnw", "-B", "-o", "-q", "package", "-Dmaven.test.skip=true"));
        sorted.forEach((k, v) -> mvn.add("-D" + k + "=" + v));
        System.out.println("OtherBuild: building " + full.substring(0, 12) + " " + sorted + " into " + home);
        long began = System.nanoTime();
        run(mvn, home.resolve("src"), log);
        if (!Files.isRegularFile(app.resolve("quarkus-run.jar"))) {
            throw new AssertionError("the build of " + full + " " + sorted + " made no " + app + "/quarkus-run.jar; see " + log);
        }
        if (mesh.install.AotCaches.supported()) {
            // trained once here, as PackagedMesh does for this build: each install from a copy then only checks them
            System.out.println("OtherBuild: " + new mesh.install.AotCaches(app, null).ensure());
        }
        Files.writeString(home.resolve("built"), full + " " + sorted + "\n");
        System.out.printf("OtherBuild: built in %.0f s%n", (System.nanoTime() - began) / 1e9);
        return app;
    }

    /** The repository the tests run in: Failsafe runs them in its base folder. */
    private static Path repository() {
        Path here = Path.of("").toAbsolutePath();
        if (!Files.isDirectory(here.resolve(".git")) && !Files.isRegularFile(here.resolve(".git"))) {
            throw new AssertionError(here + " is not a git checkout: a test that builds another commit needs this repository's git");
        }
        return here;
    }

    private static String key(Map<String, String> properties) {
        try {
            byte[] sha = MessageDigest.getInstance("SHA-256").digest(properties.toString().getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(sha, 0, 4);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Runs {@code command} in {@code dir}, its output appended to {@code log}; its output when it succeeds (the log's end). */
    private static String run(List<String> command, Path dir, Path log) throws IOException, InterruptedException {
        File out = File.createTempFile("other-build", ".out");
        try {
            ProcessBuilder b = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).redirectOutput(out);
            b.environment().putIfAbsent("JAVA_HOME", System.getProperty("java.home"));
            Process p = b.start();
            if (!p.waitFor(BUILD_MINUTES, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                throw new AssertionError(String.join(" ", command) + " did not finish in " + BUILD_MINUTES + " minutes in " + dir);
            }
            String said = Files.readString(out.toPath());
            if (!log.toString().equals("/dev/null")) {
                Files.writeString(log, "$ " + String.join(" ", command) + "\n" + said, java.nio.file.StandardOpenOption.CREATE,
                        java.nio.file.StandardOpenOption.APPEND);
            }
            if (p.exitValue() != 0) {
                throw new AssertionError(String.join(" ", command) + " failed (exit " + p.exitValue() + ") in " + dir + ":\n"
                        + said.substring(Math.max(0, said.length() - 4000)));
            }
            return said;
        } finally {
            Files.deleteIfExists(out.toPath());
        }
    }
}
