package mesh.bundle;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** BundleTarTest: the layer a push writes is reproducible, and a folder that cannot be a bundle is refused at push. */
class BundleTarTest {

    @TempDir
    Path tmp;

    byte[] layer(Path source) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BundleTar.write(BundleTar.items(source), new BundleEntryCheck(BundleLimits.DEFAULT), out);
        return out.toByteArray();
    }

    Path folder(String name, long mtime) throws IOException {
        Path dir = Files.createDirectories(tmp.resolve(name + "/b/c"));
        Files.writeString(dir.resolve("x"), "x");
        Files.writeString(tmp.resolve(name + "/run"), "#!/bin/sh\n");
        Files.setPosixFilePermissions(tmp.resolve(name + "/run"), PosixFilePermissions.fromString("rwx------"));
        Files.writeString(tmp.resolve(name + "/a"), "a");
        Files.createSymbolicLink(tmp.resolve(name + "/link"), Path.of("b/c/x"));
        for (String p : List.of("", "/a", "/run", "/b", "/b/c", "/b/c/x")) {
            Files.setLastModifiedTime(tmp.resolve(name + p), FileTime.fromMillis(mtime));
        }
        return tmp.resolve(name);
    }

    @Test
    void theSameContentGivesTheSameBytesWhateverTheTimesAndCreationOrder() throws IOException {
        assertArrayEquals(layer(folder("one", 1_000)), layer(folder("two", 1_700_000_000_000L)));
    }

    @Test
    void entriesAreSortedAndOwnedByNobody() throws IOException {
        assertEquals(List.of("a", "b", "b/c", "b/c/x", "link", "run"),
                BundleTar.items(folder("sorted", 0)).stream().map(BundleTar.Item::path).toList());
    }

    @Test
    void aFolderWithALinkLeavingItIsRefusedAtPush() throws IOException {
        Path dir = folder("leaky", 0);
        Files.createSymbolicLink(dir.resolve("passwd"), Path.of("../../../etc/passwd"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> layer(dir));
        assertEquals("entry 'passwd' is a symbolic link to '../../../etc/passwd', outside the bundle", e.getMessage());
    }

    @Test
    void theEntrypointIsGivenTheFileOrTheOnlyExecutableAtTheTop() throws IOException {
        Path dir = folder("entry", 0);
        assertEquals("run", BundlePush.entrypoint(BundleTar.items(dir), true, null, "bundle entry:1"));
        BundleFailure notExecutable = assertThrows(BundleFailure.class,
                () -> BundlePush.entrypoint(BundleTar.items(dir), true, "./b/c/x", "bundle entry:1"));
        assertEquals("bundle entry:1: " + dir.resolve("b/c/x") + " is not executable, so it could never run as the bundle's"
                + " entrypoint; 'chmod +x " + dir.resolve("b/c/x") + "' first", notExecutable.getMessage());
        Files.setPosixFilePermissions(dir.resolve("b/c/x"), PosixFilePermissions.fromString("rwxr-xr-x"));
        assertEquals("b/c/x", BundlePush.entrypoint(BundleTar.items(dir), true, "./b/c/x", "bundle entry:1"));
        BundleFailure missing = assertThrows(BundleFailure.class,
                () -> BundlePush.entrypoint(BundleTar.items(dir), true, "nope", "bundle entry:1"));
        assertEquals("bundle entry:1: the entrypoint 'nope' is not a file in the bundle", missing.getMessage());
        Files.setPosixFilePermissions(dir.resolve("a"), PosixFilePermissions.fromString("rwxr-xr-x"));
        BundleFailure two = assertThrows(BundleFailure.class,
                () -> BundlePush.entrypoint(BundleTar.items(dir), true, null, "bundle entry:1"));
        assertEquals("bundle entry:1: say which file runs (--entrypoint PATH): the folder holds 2 executables at its top, [a, run]",
                two.getMessage());
        assertFalse(two.getMessage().contains("Exception"));
    }

    /** A file pushed alone is its own entrypoint: without an execute bit it could never run, so it is refused. */
    @Test
    void aFileWithoutTheExecuteBitIsRefusedNamingIt() throws IOException {
        Path file = Files.writeString(tmp.resolve("tool"), "#!/bin/sh\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        BundleFailure e = assertThrows(BundleFailure.class,
                () -> BundlePush.entrypoint(BundleTar.items(file), false, null, "bundle tool:1"));
        assertTrue(e.getMessage().contains(file + " is not executable"), e.getMessage());
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
        assertEquals("tool", BundlePush.entrypoint(BundleTar.items(file), false, null, "bundle tool:1"));
    }
}
