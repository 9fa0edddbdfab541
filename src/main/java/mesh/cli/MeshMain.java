package mesh.cli;

import io.quarkus.runtime.Quarkus;
import io.quarkus.runtime.QuarkusApplication;
import io.quarkus.runtime.annotations.QuarkusMain;
import jakarta.inject.Inject;
import java.util.Map;
import picocli.CommandLine;

/**
 * MeshMain decides, before Quarkus boots, whether this run may listen: only the serve verbs open a
 * port. Every other verb boots with the HTTP listener switched off, so `mesh --version` never binds
 * 8080 and never fights a running agent for its port. A bare {@code mesh --version} is answered
 * before any of that ({@link VersionBeforeBoot}), and on the JVM a verb that serves nothing runs
 * without booting Quarkus at all: its commands need nothing of CDI (each makes its own
 * {@link Output}), and a boot is half of such a verb's start.
 */
@QuarkusMain
public class MeshMain implements QuarkusApplication {

    @Inject
    CommandLine.IFactory factory;

    public static void main(String... given) {
        if (VersionBeforeBoot.answered(given, System.out)) {
            return;
        }
        String[] args = LeadingOutput.moved(given);
        ServeMode mode = ServeMode.forArgs(args);
        try {
            Map<String, String> vars = ConfigFile.withEnvironment(ServeMode.configFile(args), System.getenv());
            Map<String, String> props = mode.properties(vars);
            props.forEach(System::setProperty);
            if (props.containsKey(mesh.trust.ServerTrust.PLAIN)) {
                System.err.println("mesh: WARNING: MESH_PLAIN_HTTP=yes: serving plain HTTP: tokens travel in clear,"
                        + " and a host agent has no certificate to check (it takes MESH_HOST_TOKEN as bearer if set, else"
                        + " every call); for tests on a trusted network only (docs/trust.md)");
            }
        } catch (VerbFailure | IllegalArgumentException e) {
            System.err.println("mesh: " + e.getMessage());
            System.exit(ExitCodes.FAILED);
        }
        if (mode == ServeMode.NONE && withoutBoot()) {
            // a verb that serves nothing needs no CDI, no Vert.x and no configuration: it runs
            // without booting Quarkus, in about half the time (docs/benchmarks.md, "startup")
            CliLogging.configure();
            System.exit(MeshCommandLine.forArgs(CommandLine.defaultFactory(), args).execute(args));
        }
        Quarkus.run(MeshMain.class, args);
    }

    /**
     * On the JVM as packaged (not in a native image, where a boot costs milliseconds, and not under
     * {@code @QuarkusMainTest}, which loads this main with its own class loader and boots it itself).
     */
    private static boolean withoutBoot() {
        return System.getProperty("org.graalvm.nativeimage.imagecode") == null
                && MeshMain.class.getClassLoader() == ClassLoader.getSystemClassLoader();
    }

    @Override
    public int run(String... args) {
        // moved again here (a no-op after main): tests launch run() without main()
        String[] moved = LeadingOutput.moved(args);
        return MeshCommandLine.forArgs(factory, moved).execute(moved);
    }
}
