package mesh.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import jakarta.inject.Inject;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * UnbootedVerbsTest: a verb that serves nothing runs without booting Quarkus ({@link MeshMain}), so
 * nothing injects its fields: a command of such a verb that declared an {@code @Inject} field would
 * meet it null. Only the serve verbs, which boot, may inject.
 */
class UnbootedVerbsTest {

    @Test
    void onlyTheServeVerbsInjectAnything() {
        CommandLine root = MeshCommandLine.create(CommandLine.defaultFactory());
        List<String> injected = new ArrayList<>();
        walk(root, injected);
        assertEquals(List.of(), injected, "fields a verb run without a boot would meet null");
    }

    @Test
    void theServeVerbsAreTheOnesThatBoot() {
        assertEquals(ServeMode.HOST, ServeMode.forArgs("host", "serve"));
        assertEquals(ServeMode.CONTROLLER, ServeMode.forArgs("controller", "serve"));
        assertEquals(ServeMode.NONE, ServeMode.forArgs("host", "apply", "f.json"));
    }

    private static void walk(CommandLine cmd, List<String> injected) {
        Object command = cmd.getCommand();
        boolean serve = command instanceof HostServeCommand || command instanceof ControllerServeCommand;
        for (Class<?> c = command.getClass(); c != null && c != Object.class; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                if (f.isAnnotationPresent(Inject.class) && !serve) {
                    injected.add(cmd.getCommandSpec().qualifiedName() + ": " + c.getSimpleName() + "." + f.getName());
                }
            }
        }
        cmd.getSubcommands().values().forEach(sub -> walk(sub, injected));
    }
}
