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
 * one per commit and properties, and reused by later runs: a build costs 1–3 minutes, once. A test that needs only
 * this build at another wire level takes {@link #thisBuildAtWire} instead: a copy, no build.
 */
public final class OtherBuild {

    private static final long BUILD_MINUTES = 15;

    private OtherBuild() {
    }

    /**
     * This build's packaged app ({@code target/quarkus-app}) at wire level {@code wire}: a copy whose
     * {@code mesh-version.properties} says {@code wire=N}, the one thing a build with {@code -Dmesh.wire=N} changes
     * (pom.xml filters the property into that file alone), its JDK AOT caches trained again for the changed jar.
     * It stands for a later (or earlier) build of this commit in seconds where a Maven build of it took 2–3 minutes
     * of both cores, beside the other ITs, at every new commit. Kept under the temporary folder by the app jar's
     * content (and its dependencies' list), so a rebuilt app gets a copy of its own.
     */
    public static synchronized Path thisBuildAtWire(int wire) throws IOException {
        Path from = PackagedMesh.buildDir().resolve("quarkus-app");
        Path jar = appJar(from);
        String key = sha256(6, Files.readAllBytes(jar), Files.readAllBytes(from.resolve("quarkus-app-dependencies.txt")));
        Path home = Path.of(System.getProperty("java.io.tmpdir"), "mesh-other-builds", "this-" + key + "-wire" + wire);
        Path app = home.resolve("quarkus-app");
        if (Files.isRegularFile(home.resolve("built"))) {
            return app;
        }
        PackagedMesh.deleteTree(home);
        Files.createDirectories(home);
        long began = System.nanoTime();
        PackagedMesh.copyApp(from, home);
        try (java.nio.file.FileSystem zip = java.nio.file.FileSystems.newFileSystem(app.resolve(from.relativize(jar).toString()))) {
            Path version = zip.getPath("mesh-version.properties");
            String was = Files.readString(version);
            String now = was.replaceFirst("(?m)^wire=.*$", "wire=" + wire);
            if (!now.contains("wire=" + wire)) {
                throw new AssertionError(jar + "'s mesh-version.properties names no wire level:\n" + was);
            }
            Files.writeString(version, now);
        }
        trainAotCaches(app);
        Files.writeString(home.resolve("built"), "this build (" + key + ") at wire level " + wire + "\n");
        System.out.printf("OtherBuild: this build at wire level %d in %s, made in %.0f s%n", wire, app, (System.nanoTime() - began) / 1e9);
        return app;
    }

    /** The one jar of the app's own classes in {@code app/} (Quarkus's fast-jar layout). */
    private static Path appJar(Path app) throws IOException {
        try (java.util.stream.Stream<Path> jars = Files.list(app.resolve("app"))) {
            List<Path> found = jars.filter(p -> p.getFileName().toString().endsWith(".jar")).toList();
            if (found.size() != 1) {
                throw new AssertionError("expected one jar in " + app.resolve("app") + " (run './mvnw package' first), found " + found);
            }
            return found.get(0);
        }
    }

    /** The first {@code bytes} bytes of the SHA-256 of {@code parts}, in hex: a folder's key. */
    private static String sha256(int bytes, byte[]... parts) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            for (byte[] part : parts) {
                sha.update(part);
            }
            return HexFormat.of().formatHex(sha.digest(), 0, bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
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
        trainAotCaches(app);
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
        return sha256(4, properties.toString().getBytes(StandardCharsets.UTF_8));
    }

    /** Trains {@code app}'s JDK AOT caches once here, as PackagedMesh does for this build: each install from a copy then only checks them. */
    private static void trainAotCaches(Path app) {
        if (mesh.install.AotCaches.supported()) {
            System.out.println("OtherBuild: " + new mesh.install.AotCaches(app, null).ensure());
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
