package mesh.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** LongestFirst: the order it gives, and its times file naming every installed class there is. */
class LongestFirstTest {

    @Test
    void installedClassesGoLongestFirstUnknownOnesBeforeThemTheOthersAfterByName() {
        LongestFirst order = new LongestFirst(Map.of("TakeIT", 288, "MovedCopyIT", 553, "TlsIT", 63));
        Set<String> installed = Set.of("TakeIT", "MovedCopyIT", "TlsIT", "NewIT");
        assertEquals(List.of("NewIT", "MovedCopyIT", "TakeIT", "TlsIT", "AgentCrashIT", "InstallerIT"),
                order.order(List.of("InstallerIT", "TlsIT", "AgentCrashIT", "TakeIT", "NewIT", "MovedCopyIT"), installed::contains));
    }

    @Test
    void aLineThatIsNotANameAndSecondsIsRefused() {
        assertEquals(Map.of("TakeIT", 288), LongestFirst.parse("# comment\n\nTakeIT 288\n"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> LongestFirst.parse("TakeIT 28.8\n"));
        assertTrue(e.getMessage().contains("TakeIT 28.8"), e.getMessage());
    }

    /** Every class marked @InstalledMeshTest has a time (a new one would go first until it is measured), and no gone one does. */
    @Test
    void theTimesNameEveryInstalledClassAndNoOther() throws IOException {
        Set<String> listed = LongestFirst.parse(Files.readString(Path.of("src/test/resources", LongestFirst.TIMES))).keySet();
        Set<String> marked;
        try (Stream<Path> files = Files.walk(Path.of("src/test/java"))) {
            marked = files.filter(p -> p.toString().endsWith("IT.java")).filter(p -> {
                try {
                    return Files.readString(p).contains("\n@InstalledMeshTest");
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }).map(p -> p.getFileName().toString().replace(".java", "")).collect(java.util.stream.Collectors.toSet());
        }
        assertEquals(marked, listed);
    }
}
