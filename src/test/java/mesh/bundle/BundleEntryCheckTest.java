package mesh.bundle;

import static mesh.bundle.BundleEntryCheck.Kind.DIRECTORY;
import static mesh.bundle.BundleEntryCheck.Kind.FILE;
import static mesh.bundle.BundleEntryCheck.Kind.HARDLINK;
import static mesh.bundle.BundleEntryCheck.Kind.OTHER;
import static mesh.bundle.BundleEntryCheck.Kind.SYMLINK;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.Stream;
import mesh.bundle.BundleEntryCheck.Accept;
import mesh.bundle.BundleEntryCheck.Entry;
import mesh.bundle.BundleEntryCheck.Refuse;
import mesh.bundle.BundleEntryCheck.Verdict;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** BundleEntryCheckTest: the rule book for unpacking, entry by entry, with the reason each refusal gives. */
class BundleEntryCheckTest {

    static final BundleLimits LIMITS = new BundleLimits(1000, 5);

    static Entry file(String name, long size) {
        return new Entry(name, FILE, size, null);
    }

    static Entry dir(String name) {
        return new Entry(name, DIRECTORY, 0, null);
    }

    static Entry symlink(String name, String target) {
        return new Entry(name, SYMLINK, 0, target);
    }

    static Entry hardlink(String name, String target) {
        return new Entry(name, HARDLINK, 0, target);
    }

    /** Runs the entries through one check; returns the last verdict (all before it must be accepted). */
    static Verdict last(Entry... entries) {
        BundleEntryCheck check = new BundleEntryCheck(LIMITS);
        Verdict v = null;
        for (int i = 0; i < entries.length; i++) {
            v = check.next(entries[i]);
            if (i < entries.length - 1) {
                assertInstanceOf(Accept.class, v, "entry " + entries[i] + " should pass: " + v);
            }
        }
        return v;
    }

    static Stream<Arguments> accepted() {
        return Stream.of(
                Arguments.of(List.of(file("mesh", 10)), "mesh"),
                Arguments.of(List.of(dir("./")), "."),
                Arguments.of(List.of(dir("bin/")), "bin"),
                Arguments.of(List.of(file("./bin//mesh", 10)), "bin/mesh"),
                Arguments.of(List.of(file("lib/a.jar", 10), symlink("lib/current.jar", "a.jar")), "lib/current.jar"),
                Arguments.of(List.of(dir("lib/"), file("lib/x/a", 1), symlink("bin/a", "../lib/x/a")), "bin/a"),
                Arguments.of(List.of(symlink("here", ".")), "here"),
                Arguments.of(List.of(file("a", 10), hardlink("b", "a")), "b"),
                Arguments.of(List.of(file("d/a", 10), hardlink("b", "./d/a")), "b"),
                Arguments.of(List.of(file("d/a", 10), dir("d/")), "d"));
    }

    @ParameterizedTest
    @MethodSource
    void accepted(List<Entry> entries, String path) {
        assertEquals(new Accept(path), last(entries.toArray(Entry[]::new)));
    }

    static Stream<Arguments> refused() {
        return Stream.of(
                Arguments.of(List.of(file("/etc/passwd", 1)), "entry '/etc/passwd' is an absolute path"),
                Arguments.of(List.of(file("../x", 1)), "entry '../x' leaves the bundle ('..')"),
                Arguments.of(List.of(file("a/../../x", 1)), "entry 'a/../../x' leaves the bundle ('..')"),
                Arguments.of(List.of(file("a/../b", 1)), "entry 'a/../b' leaves the bundle ('..')"),
                Arguments.of(List.of(symlink("l", "/etc")), "entry 'l' is a symbolic link to the absolute path '/etc'"),
                Arguments.of(List.of(symlink("l", "..")), "entry 'l' is a symbolic link to '..', outside the bundle"),
                Arguments.of(List.of(symlink("a/l", "../../x")), "entry 'a/l' is a symbolic link to '../../x', outside the bundle"),
                Arguments.of(List.of(symlink("t", "."), symlink("u", "t/..")),
                        "entry 'u' is a symbolic link to 't/..', which climbs ('..') after a name and may leave the bundle"),
                Arguments.of(List.of(symlink("l", "")), "entry 'l' is a symbolic link to nothing"),
                Arguments.of(List.of(symlink("d", "sub"), file("d/x", 1)), "entry 'd/x' lies under 'd', which is a symbolic link"),
                Arguments.of(List.of(file("f", 1), file("f/x", 1)), "entry 'f/x' lies under 'f', which is a file"),
                Arguments.of(List.of(hardlink("h", "../etc/passwd")), "entry 'h' is a hard link to '../etc/passwd', outside the bundle"),
                Arguments.of(List.of(hardlink("h", "/etc/passwd")), "entry 'h' is a hard link to '/etc/passwd', outside the bundle"),
                Arguments.of(List.of(hardlink("h", "later")), "entry 'h' is a hard link to 'later', which is not a file earlier in the bundle"),
                Arguments.of(List.of(symlink("s", "a"), hardlink("h", "s")), "entry 'h' is a hard link to 's', which is not a file earlier in the bundle"),
                Arguments.of(List.of(file("a", 1), file("./a", 1)), "entry './a' appears twice"),
                Arguments.of(List.of(file("d/a", 1), symlink("d", "/")), "entry 'd' appears twice"),
                Arguments.of(List.of(new Entry("dev", OTHER, 0, null)), "entry 'dev' is a device, fifo or other special file"),
                Arguments.of(List.of(file("./", 1)), "entry './' is not a directory but names the bundle's root"));
    }

    @ParameterizedTest
    @MethodSource
    void refused(List<Entry> entries, String reason) {
        Verdict v = last(entries.toArray(Entry[]::new));
        Refuse refuse = assertInstanceOf(Refuse.class, v);
        assertEquals(reason, refuse.reason());
        assertFalse(refuse.overLimit());
    }

    @Test
    void bytesOverTheLimitAreRefusedAsTooLarge() {
        Refuse r = assertInstanceOf(Refuse.class, last(file("a", 600), file("b", 400), file("c", 1)));
        assertEquals("entry 'c' takes the bundle over its size limit of 1000 bytes unpacked", r.reason());
        assertTrue(r.overLimit());
    }

    @Test
    void entriesOverTheLimitAreRefusedAsTooLarge() {
        Refuse r = assertInstanceOf(Refuse.class, last(dir("d/"), file("d/1", 0), file("d/2", 0), symlink("d/3", "1"),
                hardlink("d/4", "d/1"), file("d/5", 0)));
        assertEquals("entry 'd/5' takes the bundle over its limit of 5 files", r.reason());
        assertTrue(r.overLimit());
    }

    @Test
    void theRootEntryCountsNothingAndTheTallyAddsUp() {
        BundleEntryCheck check = new BundleEntryCheck(LIMITS);
        check.next(dir("./"));
        check.next(file("a", 300));
        check.next(file("b", 200));
        assertEquals(500, check.bytes());
        assertEquals(2, check.entries());
    }

    @Test
    void normalizeKeepsRelativeCleanPathsAndRejectsEscapes() {
        assertEquals("a/b", BundleEntryCheck.normalize("./a//b/"));
        assertEquals(".", BundleEntryCheck.normalize("./"));
        assertEquals(null, BundleEntryCheck.normalize("/a"));
        assertEquals(null, BundleEntryCheck.normalize("a/.."));
        assertEquals(null, BundleEntryCheck.normalize(""));
    }
}
