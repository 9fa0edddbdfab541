package mesh.install;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * RunningMesh says where this very mesh runs from: the app folder holding {@code quarkus-run.jar}
 * (run with this JVM's java.home), or, when running native, the executable itself; and writes the
 * launcher {@code bin/mesh} of each. The installer copies it into the state folder with its launcher,
 * and publishes that folder as the controller's bundle.
 */
public final class RunningMesh {

    private RunningMesh() {
    }

    /** The app folder, or null when this is a native executable. */
    public static Path appFolder() {
        if (System.getProperty("org.graalvm.nativeimage.imagecode") != null) {
            return null;
        }
        for (String entry : System.getProperty("java.class.path", "").split(java.io.File.pathSeparator)) {
            Path p = Path.of(entry).toAbsolutePath();
            if (p.getFileName() != null && p.getFileName().toString().equals("quarkus-run.jar") && Files.isRegularFile(p)) {
                return p.getParent();
            }
        }
        throw new InstallFailure("cannot tell which mesh runs here: no quarkus-run.jar on the class path (run the packaged mesh)");
    }

    public static Path executable() {
        return ProcessHandle.current().info().command().map(Path::of)
                .orElseThrow(() -> new InstallFailure("cannot tell the path of this executable"));
    }

    /**
     * The launcher {@code bin/mesh}: runs the app folder above it with the Java this mesh runs on; the
     * serve verbs with their own JVM flags ({@link #serveFlags}), the same that scripts/install's
     * launcher gives them, so an agent installed by {@code mesh install} holds as little memory; the
     * other verbs with the short verbs' flags ({@code cli}). Each starts from the app's JDK AOT cache
     * ({@link AotCaches}: {@code mesh.aot} for the short verbs, {@code serve.aot} for the serve verbs)
     * when the file is there, with the JVM's reports of it off: a cache the JVM refuses (a JDK
     * upgraded in place, a jar changed) is then skipped without a word, never an error or a line on
     * stdout. {@code -XX:+IgnoreUnrecognizedVMOptions}: the Java may be older than the one the flags
     * were measured on (below 25 the AOT flags are left out: {@code -Xlog:aot} would be refused).
     */
    public static String launcherScript() {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        java.util.Properties flags = serveFlags();
        boolean aot = Runtime.version().feature() >= 25;
        String start = "exec '" + java + "' -XX:+IgnoreUnrecognizedVMOptions ";
        String serve = start + (aot ? "\"$serve_aot\" " + QUIET_AOT + " " : "") + flags.getProperty("serve") + " ";
        return "#!/bin/sh\n"
                + "# mesh launcher, written by mesh install: runs the app folder above it with the Java it was installed with;\n"
                + "# the serve verbs with a small heap that shrinks back (mesh/serve-flags.properties in the app), every verb\n"
                + "# from the app's JDK AOT cache when it is there (a stale one is skipped silently).\n"
                + "set -f  # the flags below are split on spaces, never globbed (a CompileCommand pattern holds '*')\n"
                + "app=$(cd \"$(dirname \"$0\")/..\" && pwd)\n"
                + (aot ? "cli_aot=-XX:AOTMode=auto; [ -f \"$app/" + AotCaches.CLI + "\" ] && cli_aot=\"-XX:AOTCache=$app/" + AotCaches.CLI + "\"\n"
                        + "serve_aot=-XX:AOTMode=auto; [ -f \"$app/" + AotCaches.SERVE + "\" ] && serve_aot=\"-XX:AOTCache=$app/" + AotCaches.SERVE + "\"\n"
                        : "")
                + "case \"$1 $2\" in\n"
                + "  \"host serve\") " + serve + flags.getProperty("host") + " -jar \"$app/quarkus-run.jar\" \"$@\" ;;\n"
                + "  \"controller serve\") " + serve + flags.getProperty("controller") + " -jar \"$app/quarkus-run.jar\" \"$@\" ;;\n"
                + "esac\n"
                + start + (aot ? "\"$cli_aot\" " + QUIET_AOT + " " : "") + flags.getProperty("cli") + " -jar \"$app/quarkus-run.jar\" \"$@\"\n";
    }

    /** Where a native install keeps the executable, beside its launcher {@code bin/mesh} ({@link #nativeLauncherScript}). */
    public static final String NATIVE_EXECUTABLE = "bin/mesh-native";

    /**
     * The launcher {@code bin/mesh} of a native install: runs the executable beside it ({@link #NATIVE_EXECUTABLE}),
     * the serve verbs with their heap ceilings ({@code native-host}, {@code native-controller} of {@link #serveFlags}),
     * the other verbs as they are. {@code exec}: the server is the launcher's process, as systemd and the agent's
     * pid file expect.
     */
    public static String nativeLauncherScript() {
        java.util.Properties flags = serveFlags();
        String run = "exec \"$app/" + NATIVE_EXECUTABLE + "\" ";
        return "#!/bin/sh\n"
                + "# mesh launcher, written by mesh install: runs the native mesh beside it; the serve verbs with the heap\n"
                + "# ceilings of mesh/serve-flags.properties (the executable's own options: it takes them out of its arguments).\n"
                + "set -f\n"
                + "app=$(cd \"$(dirname \"$0\")/..\" && pwd)\n"
                + "case \"$1 $2\" in\n"
                + "  \"host serve\") " + run + flags.getProperty("native-host") + " \"$@\" ;;\n"
                + "  \"controller serve\") " + run + flags.getProperty("native-controller") + " \"$@\" ;;\n"
                + "esac\n"
                + run + "\"$@\"\n";
    }

    /** The JVM's reports of an AOT cache off: a refused cache is reported on stdout, which is the verbs' output. */
    public static final String QUIET_AOT = "-Xlog:aot=off,cds=off";

    /** The JVM flags of {@code mesh host serve} ({@code serve} then {@code host}), as the launcher gives them. */
    static java.util.List<String> hostServeFlags() {
        java.util.Properties p = serveFlags();
        return split(p.getProperty("serve") + " " + p.getProperty("host"));
    }

    /** The JVM flags of the other verbs ({@code cli}), as the launcher gives them. */
    public static java.util.List<String> cliFlags() {
        return split(serveFlags().getProperty("cli"));
    }

    private static java.util.List<String> split(String flags) {
        return java.util.List.of(flags.strip().split(" +"));
    }

    /** The verbs' flags (JVM: serve, host, controller, cli; native: native-host, native-controller), read from the one file scripts/install reads too. */
    static java.util.Properties serveFlags() {
        java.util.Properties p = new java.util.Properties();
        try (java.io.InputStream in = RunningMesh.class.getResourceAsStream("/mesh/serve-flags.properties")) {
            if (in == null) {
                throw new InstallFailure("this mesh was packaged without mesh/serve-flags.properties: rebuild it");
            }
            p.load(in);
        } catch (java.io.IOException e) {
            throw new InstallFailure("cannot read mesh/serve-flags.properties: " + e.getMessage(), e);
        }
        for (String key : java.util.List.of("serve", "host", "controller", "cli", "native-host", "native-controller")) {
            // written into a shell script unquoted (which sets -f, so a '*' of a CompileCommand pattern
            // is not a glob): JVM flags only, nothing else the shell would read
            if (!p.getProperty(key, "").matches("[-+:=.,*A-Za-z0-9 ]+")) {
                throw new InstallFailure("mesh/serve-flags.properties: '" + key + "' is missing or holds more than JVM flags");
            }
        }
        return p;
    }
}
