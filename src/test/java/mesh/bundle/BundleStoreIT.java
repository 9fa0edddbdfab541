package mesh.bundle;

import static mesh.bundle.CraftedBundle.Raw.file;
import static mesh.bundle.CraftedBundle.Raw.hardlink;
import static mesh.bundle.CraftedBundle.Raw.symlink;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import mesh.testbed.PackagedMesh;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * BundleStoreIT pushes and fetches bundles through a real registry (mesh-test/registry:2 on the root
 * engine), and feeds the fetch every bad bundle it must refuse: each refusal names the bundle and
 * its reason, leaves the cache byte for byte as it was, and leaves no target folder behind.
 */
class BundleStoreIT {

    static RegistryFixture fixture;
    static final BundleLimits SMALL = new BundleLimits(1 << 20, 50);

    @TempDir
    Path tmp;
    Path cacheDir;

    @BeforeAll
    static void startRegistry() throws InterruptedException {
        fixture = new RegistryFixture();
    }

    @AfterAll
    static void removeRegistry() {
        if (fixture != null) {
            fixture.close();
        }
    }

    @BeforeEach
    void cache() {
        cacheDir = tmp.resolve("state/bundles");
    }

    BundleFetch fetch(BundleLimits limits) {
        return new BundleFetch(fixture.registry(), cacheDir, limits);
    }

    BundlePush push() {
        return new BundlePush(fixture.registry(), BundleLimits.DEFAULT);
    }

    /** A folder with a nested tree, an executable, a link inside and an empty folder; random content of {@code seed}. */
    Path sampleFolder(String name, int seed) throws IOException {
        Path dir = Files.createDirectories(tmp.resolve(name));
        Files.createDirectories(dir.resolve("bin"));
        Files.createDirectories(dir.resolve("lib/deep/er"));
        Files.createDirectories(dir.resolve("empty"));
        Files.writeString(dir.resolve("run"), "#!/bin/sh\nexec java -jar lib/app.jar \"$@\"\n");
        Files.setPosixFilePermissions(dir.resolve("run"), PosixFilePermissions.fromString("rwxr-xr-x"));
        byte[] jar = new byte[300_000];
        new Random(seed).nextBytes(jar);
        Files.write(dir.resolve("lib/app.jar"), jar);
        Files.writeString(dir.resolve("lib/deep/er/notes.txt"), "ünïcödé and spaces\n");
        Files.createSymbolicLink(dir.resolve("bin/app.jar"), Path.of("../lib/app.jar"));
        return dir;
    }

    @Test
    void aPushedFolderIsFetchedByDigestByteForByte() throws IOException {
        Path source = sampleFolder("app", 1);
        BundlePush.Pushed pushed = push().push(source, BundleRef.parse("it/app:1"), null);
        assertEquals("run", pushed.entrypoint());
        assertTrue(pushed.reference().matches("it/app@sha256:[0-9a-f]{64}"), pushed.reference());

        BundleFetch.Bundle bundle = fetch(BundleLimits.DEFAULT).fetch(BundleRef.parse(pushed.reference()), tmp.resolve("run/app"));
        assertEquals(tree(source), tree(bundle.dir()));
        assertEquals(bundle.dir().resolve("run"), bundle.entrypoint());
        assertTrue(Files.isExecutable(bundle.entrypoint()));
        assertEquals(List.of(), bundle.notes());
        assertTrue(Files.isRegularFile(cacheDir.resolve("sha256/" + pushed.digest().substring(7) + "/layer.tar.gz")));

        // the tag resolves to the same digest; a second fetch unpacks from the cache
        assertEquals(pushed.reference(), fetch(BundleLimits.DEFAULT).resolve(BundleRef.parse("it/app:1")).toString());
        BundleFetch.Bundle again = fetch(BundleLimits.DEFAULT).fetch(BundleRef.parse(pushed.reference()), tmp.resolve("run/app2"));
        assertEquals(tree(source), tree(again.dir()));
    }

    @Test
    void aPushedFileIsItsOwnEntrypoint() throws IOException {
        Path file = tmp.resolve("mesh-runner");
        byte[] content = new byte[50_000];
        new Random(7).nextBytes(content);
        Files.write(file, content);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-x---"));
        BundlePush.Pushed pushed = push().push(file, BundleRef.parse("it/runner"), null);
        assertEquals("latest", pushed.tag());
        assertEquals("mesh-runner", pushed.entrypoint());

        BundleFetch.Bundle bundle = fetch(BundleLimits.DEFAULT).fetch(BundleRef.parse(pushed.reference()), tmp.resolve("run/runner"));
        assertEquals(bundle.dir().resolve("mesh-runner"), bundle.entrypoint());
        assertEquals(java.util.Arrays.toString(content), java.util.Arrays.toString(Files.readAllBytes(bundle.entrypoint())));
        assertTrue(Files.isExecutable(bundle.entrypoint()));
        try (Stream<Path> all = Files.list(bundle.dir())) {
            assertEquals(1, all.count());
        }
    }

    @Test
    void theSameContentGivesTheSameDigestWhereverAndWheneverItIsPushed() throws IOException {
        Path one = sampleFolder("one", 3);
        Path two = sampleFolder("two", 3);
        try (Stream<Path> all = Files.walk(two)) {
            for (Path p : all.filter(p -> !Files.isSymbolicLink(p)).toList()) {
                Files.setLastModifiedTime(p, FileTime.fromMillis(1_000_000_000_000L));
            }
        }
        String first = push().push(one, BundleRef.parse("it/same:a"), null).digest();
        assertEquals(first, push().push(two, BundleRef.parse("it/same:b"), null).digest());
        assertEquals(first, push().push(one, BundleRef.parse("it/same:a"), null).digest());
        Files.writeString(two.resolve("lib/deep/er/notes.txt"), "changed\n");
        assertNotEquals(first, push().push(two, BundleRef.parse("it/same:c"), null).digest());

        List<BundlePush.Listed> listed = push().list().stream().filter(l -> l.name().equals("it/same")).toList();
        assertEquals(List.of("a", "b", "c"), listed.stream().map(BundlePush.Listed::tag).toList());
        assertEquals(listed.get(0).digest(), listed.get(1).digest());
    }

    @Test
    void aCorruptedCacheIsFetchedAgain() throws IOException {
        BundlePush.Pushed pushed = push().push(sampleFolder("cached", 4), BundleRef.parse("it/cached"), null);
        BundleRef ref = BundleRef.parse(pushed.reference());
        fetch(BundleLimits.DEFAULT).fetch(ref, tmp.resolve("run/a"));
        Path layer = cacheDir.resolve("sha256/" + ref.digest().hex() + "/layer.tar.gz");
        byte[] good = Files.readAllBytes(layer);
        byte[] bad = good.clone();
        bad[bad.length / 2] ^= 1;
        Files.write(layer, bad);

        BundleFetch.Bundle again = fetch(BundleLimits.DEFAULT).fetch(ref, tmp.resolve("run/b"));
        assertEquals(List.of("its cached layer does not match its digest; fetched it again"), again.notes());
        assertEquals(tree(tmp.resolve("run/a")), tree(again.dir()));
        assertEquals(java.util.Arrays.toString(good), java.util.Arrays.toString(Files.readAllBytes(layer)));
        assertFalse(Files.exists(cacheDir.resolve("tmp")), "no staging left in the cache");

        // corrupt again, and the registry is down: a named failure; the cache stays as it was
        Files.write(layer, bad);
        Map<String, String> before = tree(cacheDir);
        BundleFetch down = new BundleFetch(new HttpRegistry("http://127.0.0.1:" + PackagedMesh.freePort()), cacheDir,
                BundleLimits.DEFAULT);
        BundleFailure f = assertThrows(BundleFailure.class, () -> down.fetch(ref, tmp.resolve("run/c")));
        assertEquals(BundleFailure.Reason.UNREACHABLE, f.reason());
        assertNamed(f, ref, "does not answer (connection refused");
        assertEquals(before, tree(cacheDir));
        assertFalse(Files.exists(tmp.resolve("run/c")));
    }

    static Stream<Arguments> badLayers() {
        byte[] small = "x".getBytes(StandardCharsets.UTF_8);
        CraftedBundle.Raw[] many = new CraftedBundle.Raw[60];
        for (int i = 0; i < many.length; i++) {
            many[i] = file("f" + i, small);
        }
        return Stream.of(
                Arguments.of("dotdot", new CraftedBundle.Raw[] {file("run", small), file("../x", small)},
                        BundleFailure.Reason.UNSAFE_ENTRY, "entry '../x' leaves the bundle ('..')"),
                Arguments.of("absolute", new CraftedBundle.Raw[] {file("run", small), file("/tmp/mesh-bundle-it-x", small)},
                        BundleFailure.Reason.UNSAFE_ENTRY, "entry '/tmp/mesh-bundle-it-x' is an absolute path"),
                Arguments.of("symlink-out", new CraftedBundle.Raw[] {file("run", small), symlink("etc", "../../../../etc")},
                        BundleFailure.Reason.UNSAFE_ENTRY, "entry 'etc' is a symbolic link to '../../../../etc', outside the bundle"),
                Arguments.of("through-symlink", new CraftedBundle.Raw[] {file("run", small), symlink("d", "sub"), file("d/x", small)},
                        BundleFailure.Reason.UNSAFE_ENTRY, "entry 'd/x' lies under 'd', which is a symbolic link"),
                Arguments.of("hardlink-out", new CraftedBundle.Raw[] {file("run", small), hardlink("passwd", "../../etc/passwd")},
                        BundleFailure.Reason.UNSAFE_ENTRY, "entry 'passwd' is a hard link to '../../etc/passwd', outside the bundle"),
                Arguments.of("bomb", new CraftedBundle.Raw[] {file("run", small), file("zeros", new byte[2 << 20])},
                        BundleFailure.Reason.TOO_LARGE, "entry 'zeros' takes the bundle over its size limit of 1048576 bytes unpacked"),
                Arguments.of("many", many, BundleFailure.Reason.TOO_LARGE, "entry 'f50' takes the bundle over its limit of 50 files"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badLayers")
    void aBadLayerIsRefusedAndChangesNothing(String name, CraftedBundle.Raw[] entries, BundleFailure.Reason reason,
            String detail) throws IOException {
        warmCache();
        BundleRef ref = CraftedBundle.push(fixture.registry(), "bad/" + name, "run", entries);
        assertRefusedChangingNothing(fetch(SMALL), ref, reason, "its layer is refused: " + detail);
        assertFalse(Files.exists(Path.of("/tmp/mesh-bundle-it-x")));
    }

    @Test
    void anUnknownDigestIsNotFound() throws IOException {
        warmCache();
        BundleRef ref = new BundleRef("it/app", null, Digest.of("no such manifest".getBytes(StandardCharsets.UTF_8)));
        assertRefusedChangingNothing(fetch(BundleLimits.DEFAULT), ref, BundleFailure.Reason.NOT_FOUND,
                "not found in the artifact store at " + fixture.url + " (MANIFEST_UNKNOWN: manifest unknown)");
    }

    @Test
    void aManifestAlteredOnTheWayIsADigestMismatch() throws IOException {
        warmCache();
        BundleRef ref = BundleRef.parse(push().push(sampleFolder("altered", 5), BundleRef.parse("it/altered"), null).reference());
        try (LyingRegistry lying = new LyingRegistry(fixture.url, LyingRegistry.Lie.ALTER)) {
            assertRefusedChangingNothing(new BundleFetch(new HttpRegistry(lying.url()), cacheDir, BundleLimits.DEFAULT), ref,
                    BundleFailure.Reason.DIGEST_MISMATCH, "the artifact store sent a manifest whose digest is sha256:");
        }
    }

    @Test
    void aLayerCutOffOnTheWayIsRefused() throws IOException {
        warmCache();
        BundleRef ref = BundleRef.parse(push().push(sampleFolder("cut", 6), BundleRef.parse("it/cut"), null).reference());
        try (LyingRegistry lying = new LyingRegistry(fixture.url, LyingRegistry.Lie.TRUNCATE)) {
            assertRefusedChangingNothing(new BundleFetch(new HttpRegistry(lying.url()), cacheDir, BundleLimits.DEFAULT), ref,
                    BundleFailure.Reason.SIZE_MISMATCH, "the download of its layer broke off after ");
        }
    }

    /**
     * A backup's new large file is read once: streamed (PATCH) and hashed as sent, then kept under the digest it has; a
     * stream shorter than the size it was said to have is refused and nothing is kept under its digest.
     */
    @Test
    void aBlobWhoseDigestIsNotKnownFirstIsHashedAsSentAndKeptUnderIt() throws IOException {
        byte[] content = new byte[3 * 1024 * 1024 + 17];
        new Random(7).nextBytes(content);
        Digest sent = fixture.registry().pushBlobHashed("it/hashed", content.length, new java.io.ByteArrayInputStream(content));
        assertEquals(Digest.of(content), sent);
        assertTrue(fixture.registry().hasBlob("it/hashed", sent));
        try (var in = fixture.registry().blob("it/hashed", sent)) {
            assertTrue(java.util.Arrays.equals(content, in.readAllBytes()), "the registry gives back the bytes sent");
        }
        byte[] shorter = java.util.Arrays.copyOf(content, 1000);
        shorter[0] ^= 1;
        BundleFailure f = assertThrows(BundleFailure.class, () -> fixture.registry().pushBlobHashed("it/hashed", 2000,
                new java.io.ByteArrayInputStream(shorter)));
        assertTrue(f.getMessage().startsWith("bundle it/hashed: the artifact store at " + fixture.url), f.getMessage());
        assertFalse(fixture.registry().hasBlob("it/hashed", Digest.of(shorter)));
    }

    /** Why LyingRegistry exists: the registry itself refuses bytes stored under a digest they do not have. */
    @Test
    void theRegistryRefusesABlobUnderALyingDigest() {
        byte[] half = "half of a layer".getBytes(StandardCharsets.UTF_8);
        Digest lie = Digest.of("the whole layer".getBytes(StandardCharsets.UTF_8));
        BundleFailure f = assertThrows(BundleFailure.class, () -> fixture.registry().pushBlob("it/lie", lie, half));
        assertEquals(BundleFailure.Reason.REGISTRY, f.reason());
        assertTrue(f.getMessage().startsWith("bundle it/lie: the artifact store at " + fixture.url + " answered 400 to PUT"),
                f.getMessage());
        assertTrue(f.getMessage().contains("DIGEST_INVALID"), f.getMessage());
        assertFalse(fixture.registry().hasBlob("it/lie", lie));
    }

    @Test
    void aManifestThatOverstatesItsLayerIsRefused() throws IOException {
        warmCache();
        byte[] layer = CraftedBundle.layer(file("run", new byte[5000]));
        BundleRef ref = CraftedBundle.push(fixture.registry(), "bad/overstated", "run", layer, layer.length + 100);
        assertRefusedChangingNothing(fetch(BundleLimits.DEFAULT), ref, BundleFailure.Reason.SIZE_MISMATCH,
                "its layer arrived with " + layer.length + " of " + (layer.length + 100) + " bytes the manifest gives");
    }

    @Test
    void aRegistryThatIsDownIsNamed() throws IOException {
        String down = "http://127.0.0.1:" + PackagedMesh.freePort();
        BundleRef ref = new BundleRef("it/app", null, Digest.of(new byte[0]));
        warmCache();
        assertRefusedChangingNothing(new BundleFetch(new HttpRegistry(down), cacheDir, BundleLimits.DEFAULT), ref,
                BundleFailure.Reason.UNREACHABLE, "the artifact store at " + down + " does not answer (connection refused");
        BundleFailure f = assertThrows(BundleFailure.class, () -> new BundlePush(new HttpRegistry(down), BundleLimits.DEFAULT)
                .push(sampleFolder("nowhere", 8), BundleRef.parse("it/nowhere"), null));
        assertEquals("bundle it/nowhere:latest: the artifact store at " + down
                + " does not answer (connection refused: is the registry running, and is its address right?)", f.getMessage());
    }

    /** A good bundle in the cache, so "the cache is unchanged" means something. */
    private void warmCache() throws IOException {
        BundlePush.Pushed good = push().push(sampleFolder("good-" + System.nanoTime(), 9), BundleRef.parse("it/good"), null);
        fetch(BundleLimits.DEFAULT).fetch(BundleRef.parse(good.reference()), tmp.resolve("warm-" + System.nanoTime()));
    }

    private void assertRefusedChangingNothing(BundleFetch fetch, BundleRef ref, BundleFailure.Reason reason, String detail)
            throws IOException {
        Map<String, String> cacheBefore = tree(cacheDir);
        Path targets = Files.createDirectories(tmp.resolve("targets"));
        Path target = targets.resolve("bundle");
        BundleFailure f = assertThrows(BundleFailure.class, () -> fetch.fetch(ref, target));
        assertEquals(reason, f.reason(), f.getMessage());
        assertNamed(f, ref, detail);
        assertEquals(cacheBefore, tree(cacheDir), "the cache is as it was");
        try (Stream<Path> left = Files.list(targets)) {
            assertEquals(List.of(), left.toList(), "no target and no staging folder left");
        }
    }

    private static void assertNamed(BundleFailure f, BundleRef ref, String detail) {
        String prefix = "bundle " + ref + ": ";
        assertTrue(f.getMessage().startsWith(prefix), f.getMessage());
        assertTrue(f.getMessage().contains(detail), "'" + f.getMessage() + "' should contain '" + detail + "'");
        assertFalse(f.getMessage().matches("(?s).*(Exception|java\\.|\\bnull\\b).*"), f.getMessage());
    }

    /** Every path under {@code root}: a file's sha256 and whether it is executable, a link's target, or "dir". */
    static Map<String, String> tree(Path root) throws IOException {
        Map<String, String> tree = new TreeMap<>();
        if (!Files.exists(root)) {
            return tree;
        }
        try (Stream<Path> all = Files.walk(root)) {
            for (Path p : all.toList()) {
                String key = root.relativize(p).toString();
                if (Files.isSymbolicLink(p)) {
                    tree.put(key, "-> " + Files.readSymbolicLink(p));
                } else if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
                    tree.put(key, "dir");
                } else {
                    tree.put(key, Digest.ofFile(p) + (Files.isExecutable(p) ? " x" : ""));
                }
            }
        }
        return tree;
    }
}
