package mesh.install;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * RunningMesh says where this very mesh runs from: the app folder holding {@code quarkus-run.jar}
 * (run with this JVM's java.home), or, when running native, the executable itself. The installer
 * copies it and publishes it as the controller's bundle.
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

    /** The launcher {@code bin/mesh}: runs the app folder above it with the Java this mesh runs on. */
    public static String launcherScript() {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return "#!/bin/sh\n"
                + "# mesh launcher, written by mesh install: runs the app folder above it with the Java it was installed with.\n"
                + "app=$(cd \"$(dirname \"$0\")/..\" && pwd)\n"
                + "exec '" + java + "' -jar \"$app/quarkus-run.jar\" \"$@\"\n";
    }
}
