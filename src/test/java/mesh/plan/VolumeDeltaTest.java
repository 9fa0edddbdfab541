package mesh.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import mesh.model.VolumeIndex;
import mesh.model.VolumeIndex.Entry;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** VolumeDeltaTest: what a pass sends and deletes, per kind of change, as a table. */
class VolumeDeltaTest {

    static final long T = 1_700_000_000_000L;   // a file's time, long before the pass
    static final long SINCE = T + 600_000;      // the previous pass began ten minutes later

    static Entry root() {
        return new Entry(".", "dir", 0, T, "0755", 0, 0, null);
    }

    static Entry file(String path, long size, long mtime) {
        return new Entry(path, "file", size, mtime, "0644", 1000, 1000, null);
    }

    static Entry dir(String path) {
        return new Entry(path, "dir", 0, T, "0755", 1000, 1000, null);
    }

    static Entry link(String path, String to) {
        return new Entry(path, "link", 0, T, "0777", 1000, 1000, to);
    }

    static VolumeIndex index(Entry... entries) {
        List<Entry> all = new ArrayList<>(List.of(root()));
        all.addAll(List.of(entries));
        return new VolumeIndex("data", SINCE + 60_000, all);
    }

    static Stream<Arguments> table() {
        Entry a = file("a", 10, T);
        return Stream.of(
                Arguments.of("the same: nothing", index(dir("d"), a), index(dir("d"), a), SINCE, List.of(), List.of()),
                Arguments.of("new file", index(a, file("b", 5, T)), index(a), SINCE, List.of(), List.of("b")),
                Arguments.of("appended: size", index(file("a", 20, T + 5000)), index(a), SINCE, List.of(), List.of("a")),
                Arguments.of("rewritten in place: time", index(file("a", 10, T + 5000)), index(a), SINCE, List.of(), List.of("a")),
                Arguments.of("same second but written after the pass began: racy", index(file("a", 10, SINCE + 200)),
                        index(file("a", 10, SINCE)), SINCE, List.of(), List.of("a")),
                Arguments.of("written a moment before the pass began: racy", index(file("a", 10, SINCE - 500)),
                        index(file("a", 10, SINCE - 500)), SINCE, List.of(), List.of("a")),
                Arguments.of("no earlier pass: every file", index(a), index(a), 0L, List.of(), List.of("a")),
                Arguments.of("mapped shared and writable during the take: sent, size and time the same",
                        index(new Entry("a", "file", 10, T, "0644", 1000, 1000, null, true)), index(a), SINCE, List.of(),
                        List.of("a")),
                Arguments.of("time kept in whole seconds on the target: same", index(file("a", 10, T + 999)), index(a), SINCE,
                        List.of(), List.of()),
                Arguments.of("mode", index(new Entry("a", "file", 10, T, "0600", 1000, 1000, null)), index(a), SINCE, List.of(),
                        List.of("a")),
                Arguments.of("owner", index(new Entry("a", "file", 10, T, "0644", 0, 1000, null)), index(a), SINCE, List.of(),
                        List.of("a")),
                Arguments.of("link retargeted", index(link("l", "b")), index(link("l", "a")), SINCE, List.of(), List.of("l")),
                Arguments.of("deleted", index(), index(a), SINCE, List.of("a"), List.of()),
                Arguments.of("renamed", index(file("b", 10, T)), index(a), SINCE, List.of("a"), List.of("b")),
                Arguments.of("folder deleted: its topmost path only", index(), index(dir("d"), file("d/x", 1, T), dir("d/e"),
                        file("d/e/y", 1, T)), SINCE, List.of("d"), List.of()),
                Arguments.of("file became a folder: deleted, then sent with its entries", index(dir("a"), file("a/x", 1, T)),
                        index(a), SINCE, List.of("a"), List.of("a", "a/x")),
                Arguments.of("folder became a link", index(link("d", "a")), index(dir("d"), file("d/x", 1, T)), SINCE,
                        List.of("d"), List.of("d")),
                Arguments.of("folder's mode: the folder alone", index(new Entry("d", "dir", 0, T, "0700", 1000, 1000, null),
                        file("d/x", 1, T)), index(dir("d"), file("d/x", 1, T)), SINCE, List.of(), List.of("d")),
                Arguments.of("a folder's time alone: nothing", index(new Entry("d", "dir", 0, T + 9000, "0755", 1000, 1000, null)),
                        index(dir("d")), SINCE, List.of(), List.of()),
                Arguments.of("into an empty target: everything", index(dir("d"), file("d/x", 1, T)), new VolumeIndex("data", 0,
                        List.of(root())), SINCE, List.of(), List.of("d", "d/x")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("table")
    void sendsAndDeletesWhatDiffers(String name, VolumeIndex source, VolumeIndex target, long since, List<String> delete,
                                    List<String> send) {
        VolumeDelta d = VolumeDelta.of(source, target, since);
        assertEquals(delete, d.delete(), "delete");
        assertEquals(send, d.send(), "send");
    }
}
