import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * NativeImageDriver is the project's own {@code native-image} command: it turns the options a build
 * tool passes (Quarkus 3.33 here) into the command line of the GraalVM image builder
 * ({@code NativeImageGeneratorRunner} on JDK 25 with the builder's Maven Central jars), reads the
 * {@code native-image.properties} the image's jars carry, and runs the builder. The home folder it
 * is given holds the JDK, the builder jars ({@code lib/svm/builder/jars}) and the C libraries
 * ({@code lib/svm/clibraries/linux-amd64}).
 */
public final class NativeImageDriver {
    static final String GRAAL = "25.0.4";
    static final String VENDOR = "Mandrel-25.0.4.0-Final";

    private final Path home;
    private final List<String> jvm = new ArrayList<>();
    private final List<String> hosted = new ArrayList<>();
    private final Set<String> classpath = new LinkedHashSet<>();
    private final List<Pattern[]> excluded = new ArrayList<>();
    private final List<String> positional = new ArrayList<>();
    private String name;
    private String mainClass;
    private boolean jarGiven;

    private NativeImageDriver(Path home) {
        this.home = home;
    }

    public static void main(String[] args) throws Exception {
        Path home = Path.of(args[0]);
        List<String> options = List.of(args).subList(1, args.length);
        if (options.contains("--version")) {
            System.out.println(version());
            return;
        }
        NativeImageDriver driver = new NativeImageDriver(home);
        driver.take(options, true);
        driver.namePositionals();
        driver.readJarProperties();
        List<String> command = driver.builderCommand();
        if (System.getenv("MESH_NATIVE_SHOW_COMMAND") != null) {
            System.err.println(String.join(" \\\n  ", command));
        }
        Process builder = new ProcessBuilder(command).inheritIO().start();
        System.exit(builder.waitFor());
    }

    /** The three lines Quarkus's GraalVM.Version parses (runtime and VM line name the vendor). */
    static String version() {
        String java = Runtime.version().toString().replace("-LTS", "");
        return "native-image " + Runtime.version().feature() + "." + Runtime.version().interim() + "."
                + Runtime.version().update() + " 2026-04-21\n"
                + "OpenJDK Runtime Environment " + VENDOR + " (build " + java + ")\n"
                + "OpenJDK 64-Bit Server VM " + VENDOR + " (build " + java + ", mixed mode)";
    }

    private void take(List<String> options, boolean commandLine) {
        for (int i = 0; i < options.size(); i++) {
            String o = options.get(i);
            if (o.startsWith("-J")) {
                jvm.add(o.substring(2));
            } else if (o.startsWith("-D")) {
                jvm.add(o);
            } else if (o.startsWith("-H:") || o.startsWith("-R:")) {
                hosted.add(o);
            } else if (o.equals("-jar")) {
                addJar(Path.of(options.get(++i)));
            } else if (o.equals("-cp") || o.equals("-classpath") || o.equals("--class-path")) {
                for (String entry : options.get(++i).split(":")) {
                    classpath.add(Path.of(entry).toAbsolutePath().toString());
                }
            } else if (o.equals("-o")) {
                name = options.get(++i);
            } else if (o.equals("--exclude-config")) {
                String jars = options.get(++i);
                String resources = options.get(++i);
                // the 25.0.4 builder has no option for it: only the jars' native-image.properties
                // are left out here, their JSON configuration is still read
                excluded.add(new Pattern[] {Pattern.compile(jars), Pattern.compile(resources)});
            } else if (!o.startsWith("-")) {
                positional.add(o);
            } else {
                translate(o);
            }
        }
    }

    /** With -jar the one positional argument is the image's name; else the main class, then the name. */
    private void namePositionals() {
        List<String> rest = new ArrayList<>(positional);
        if (!jarGiven && !rest.isEmpty()) {
            mainClass = rest.remove(0);
        }
        if (!rest.isEmpty()) {
            name = rest.get(0);
        }
    }

    /** An API option of the real driver as the builder's hosted option, or a clear refusal. */
    private void translate(String o) {
        String value = o.contains("=") ? o.substring(o.indexOf('=') + 1) : "";
        String key = o.contains("=") ? o.substring(0, o.indexOf('=')) : o;
        switch (key) {
            case "--features" -> hosted.add("-H:Features=" + value);
            case "--initialize-at-run-time" -> initialization(value, "run_time");
            case "--initialize-at-build-time" -> initialization(value, "build_time");
            case "--no-fallback" -> hosted.add("-H:FallbackThreshold=0");
            case "--auto-fallback", "--force-fallback" -> { }
            case "--enable-url-protocols" -> hosted.add("-H:EnableURLProtocols=" + value);
            case "--enable-http" -> hosted.add("-H:EnableURLProtocols=http");
            case "--enable-https" -> hosted.add("-H:EnableURLProtocols=https");
            case "--enable-monitoring" -> hosted.add("-H:EnableMonitoringFeatures=" + (value.isEmpty() ? "all" : value));
            case "--install-exit-handlers" -> hosted.add("-H:+InstallExitHandlers");
            case "--report-unsupported-elements-at-runtime" -> hosted.add("-H:+ReportUnsupportedElementsAtRuntime");
            case "--link-at-build-time" -> hosted.add("-H:LinkAtBuildTime=" + value);
            case "--enable-native-access" -> hosted.add("-H:EnableNativeAccess=" + value);
            case "--parallelism" -> hosted.add("-H:NumberOfThreads=" + value);
            case "--future-defaults" -> hosted.add("-H:FutureDefaults=" + value);
            case "--strict-image-heap", "--verbose", "-v", "--allow-incomplete-classpath",
                 "--enable-all-security-services", "--no-server" -> { }
            case "-g" -> hosted.add("-H:GenerateDebugInfo=1");
            default -> {
                if (o.startsWith("-march=")) {
                    hosted.add("-H:MicroArchitecture=" + value);
                } else if (o.startsWith("-O") && o.length() <= 4) {
                    hosted.add("-H:Optimize=" + o.substring(2));
                } else if (o.startsWith("-E")) {
                    // the builder inherits this driver's whole environment
                } else {
                    throw new IllegalArgumentException("native-image: option not supported here: " + o);
                }
            }
        }
    }

    private void initialization(String classes, String when) {
        if (classes.isEmpty()) {
            hosted.add("-H:ClassInitialization=:" + when);
            return;
        }
        List<String> each = new ArrayList<>();
        for (String c : classes.split(",")) {
            if (!c.isBlank()) {
                each.add(c.trim() + ":" + when);
            }
        }
        hosted.add("-H:ClassInitialization=" + String.join(",", each));
    }

    private void addJar(Path jar) {
        jarGiven = true;
        Path absolute = jar.toAbsolutePath();
        classpath.add(absolute.toString());
        try (JarFile file = new JarFile(absolute.toFile())) {
            Attributes main = file.getManifest() == null ? null : file.getManifest().getMainAttributes();
            if (main == null) {
                return;
            }
            if (mainClass == null && main.getValue("Main-Class") != null) {
                mainClass = main.getValue("Main-Class");
            }
            String path = main.getValue("Class-Path");
            if (path != null) {
                for (String entry : path.trim().split("\\s+")) {
                    classpath.add(absolute.getParent().resolve(entry).normalize().toString());
                }
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("native-image: cannot read " + jar + ": " + e.getMessage(), e);
        }
        if (name == null) {
            String file = jar.getFileName().toString();
            name = file.endsWith(".jar") ? file.substring(0, file.length() - 4) : file;
        }
    }

    /** The Args and JavaArgs of every META-INF/native-image/.../native-image.properties. */
    private void readJarProperties() throws IOException {
        for (String entry : List.copyOf(classpath)) {
            Path path = Path.of(entry);
            if (Files.isDirectory(path)) {
                Path root = path.resolve("META-INF/native-image");
                if (!Files.isDirectory(root)) {
                    continue;
                }
                try (Stream<Path> configs = Files.walk(root)) {
                    configs.filter(f -> f.getFileName().toString().endsWith(".json"))
                            .forEach(f -> configRoot(path.relativize(f.getParent()).toString()));
                }
                try (Stream<Path> files = Files.walk(root)) {
                    for (Path p : files.filter(f -> f.getFileName().toString().equals("native-image.properties")).toList()) {
                        try (InputStream in = Files.newInputStream(p)) {
                            apply(entry, "/" + path.relativize(p), in);
                        }
                    }
                }
            } else if (Files.isRegularFile(path)) {
                try (JarFile jar = new JarFile(path.toFile())) {
                    Enumeration<JarEntry> entries = jar.entries();
                    while (entries.hasMoreElements()) {
                        JarEntry e = entries.nextElement();
                        if (e.getName().startsWith("META-INF/native-image/") && e.getName().endsWith(".json")) {
                            configRoot(e.getName().substring(0, e.getName().lastIndexOf('/')));
                        }
                        if (e.getName().startsWith("META-INF/native-image/") && e.getName().endsWith("/native-image.properties")) {
                            try (InputStream in = jar.getInputStream(e)) {
                                apply(entry, "/" + e.getName(), in);
                            }
                        }
                    }
                }
            }
        }
    }

    /**
     * A folder of META-INF/native-image that holds JSON configuration (reflection, resources, JNI, ...): the
     * builder reads such files only under the roots it is given, as the real driver gives each one it finds.
     * Quarkus writes its registrations (reflect-config.json, resource-config.json) at the top folder itself.
     */
    private void configRoot(String folder) {
        String option = "-H:ConfigurationResourceRoots=" + folder;
        if (!hosted.contains(option)) {
            hosted.add(option);
        }
    }

    private void apply(String origin, String resource, InputStream in) throws IOException {
        for (Pattern[] rule : excluded) {
            if (rule[0].matcher(origin).matches() && rule[1].matcher(resource).matches()) {
                return;
            }
        }
        Properties properties = new Properties();
        properties.load(in);
        String args = properties.getProperty("Args");
        if (args != null && !args.isBlank()) {
            take(List.of(args.trim().split("\\s+")), false);
        }
        String javaArgs = properties.getProperty("JavaArgs");
        if (javaArgs != null && !javaArgs.isBlank()) {
            jvm.addAll(List.of(javaArgs.trim().split("\\s+")));
        }
    }

    private List<String> builderCommand() throws IOException {
        Path jars = home.resolve("lib/svm/builder/jars");
        List<String> modulePath = new ArrayList<>();
        String compiler = null;
        try (Stream<Path> list = Files.list(jars)) {
            for (Path jar : list.sorted().toList()) {
                if (jar.getFileName().toString().startsWith("compiler-")) {
                    compiler = jar.toString();
                } else {
                    modulePath.add(jar.toString());
                }
            }
        }
        List<String> c = new ArrayList<>();
        c.add(home.resolve("bin/java").toString());
        c.addAll(List.of("-XX:+UseParallelGC", "-XX:+UnlockExperimentalVMOptions", "-XX:+EnableJVMCI",
                "-XX:-UseJVMCICompiler", "-Xss10m", "-Djava.awt.headless=true",
                // the image's modules keep the builder's native access: without it an image's first
                // System.loadLibrary looks up a code source through libjava before its encoding is set
                "--enable-native-access=org.graalvm.nativeimage.builder,org.graalvm.nativeimage.base,"
                        + "org.graalvm.nativeimage.pointsto,jdk.graal.compiler,ALL-UNNAMED",
                "-Dorg.graalvm.nativeimage.imagecode=buildtime",
                "-Dorg.graalvm.version=" + GRAAL, "-Dorg.graalvm.vendorversion=" + VENDOR,
                "-Djdk.internal.lambda.disableEagerInitialization=true",
                "-Djava.system.class.loader=com.oracle.svm.hosted.NativeImageSystemClassLoader"));
        c.add("@" + home.resolve("lib/svm/builder/exports"));
        c.addAll(jvm);
        c.addAll(List.of("--upgrade-module-path", compiler, "--module-path", String.join(":", modulePath),
                "--add-modules", "ALL-DEFAULT",
                "-m", "org.graalvm.nativeimage.builder/com.oracle.svm.hosted.NativeImageGeneratorRunner"));
        c.addAll(List.of("-imagecp", String.join(":", classpath)));
        c.add("-H:CLibraryPath=" + home.resolve("lib/svm/clibraries/linux-amd64"));
        // JDK 26's libjava reaches Charset.forName, String.getBytes(Charset) and String(byte[], Charset)
        // through JNI (its platform encoding); the builder registers only what JDK 25's needs
        c.add("-H:ConfigurationFileDirectories=" + home.resolve("lib/svm/jdk26-compat"));
        c.add("-H:Path=" + Path.of("").toAbsolutePath());
        c.add("-H:ImageBuildID=" + UUID.randomUUID());
        if (name != null) {
            c.add("-H:Name=" + name);
        }
        if (mainClass != null) {
            c.add("-H:Class=" + mainClass);
        }
        c.addAll(hosted);
        return c;
    }
}
