package mesh.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class TempControllersTest {

    private static final String APP = "/var/lib/mesh/app";

    private static TempControllers.Seen seen(long pid, String command, String... arguments) {
        return new TempControllers.Seen(pid, command, List.of(arguments));
    }

    @Test
    void theLauncherTheJvmItExecsAndTheNativeExecutableOfThisAppAreTemporaryControllers() {
        List<TempControllers.Seen> processes = List.of(
                seen(11, "/usr/bin/dash", APP + "/bin/mesh", "controller", "serve"),
                seen(12, "/usr/lib/jvm/jdk/bin/java", "-XX:+IgnoreUnrecognizedVMOptions", "-XX:AOTCache=" + APP + "/serve.aot",
                        "-Xmx128m", "-jar", APP + "/quarkus-run.jar", "controller", "serve"),
                seen(13, APP + "/bin/mesh-native", "-Xmx128m", "-Xmn16m", "controller", "serve"));
        assertEquals(List.of(11L, 12L, 13L), TempControllers.of(processes, APP));
        assertEquals(List.of(11L, 12L, 13L), TempControllers.of(processes, APP + "/"));
    }

    @Test
    void thePermanentControllerAnotherInstallsAndOtherVerbsOfThisAppAreNot() {
        List<TempControllers.Seen> processes = List.of(
                // the permanent one: the agent runs it from the unpacked bundle
                seen(21, "/usr/lib/jvm/jdk/bin/java", "-jar", "/var/lib/mesh/bundles/unpacked/ab12/quarkus-run.jar", "controller", "serve"),
                // another install's, whose folder merely starts with this one's name
                seen(22, "/usr/bin/dash", "/var/lib/mesh/app2/bin/mesh", "controller", "serve"),
                seen(23, "/usr/lib/jvm/jdk/bin/java", "-jar", APP + "/quarkus-run.jar", "host", "serve"),
                seen(24, "/usr/lib/jvm/jdk/bin/java", "-jar", APP + "/quarkus-run.jar", "uninstall", "--state-dir", "/var/lib/mesh"),
                // the words apart are not the verb
                seen(25, APP + "/bin/mesh-native", "controller", "list", "serve"),
                // a process whose arguments the system does not show
                seen(26, "/usr/lib/jvm/jdk/bin/java"));
        assertEquals(List.of(), TempControllers.of(processes, APP));
    }
}
