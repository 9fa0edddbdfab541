package mesh.host.process;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * LaunchCommand is the exact command line that starts a supervised process, built as a value so it can be
 * read and tested (Kamal builds its Docker invocations the same way):
 *
 * <pre>
 * setsid sh -c SHIM mesh-shim COMPONENT DIGEST EXIT_FILE --            (session leader: the identity)
 *   unshare --mount --propagation private --                          (a mount namespace of its own)
 *     sh -c 'mount --bind "$0" /etc/hosts &amp;&amp; exec "$@"' HOSTS_FILE   (its hosts file as /etc/hosts)
 *       EXECUTABLE ARGS...                                            (the component, via exec)
 * </pre>
 *
 * The shim sets its traps first (a TERM that arrives before the child exists is passed on once it does),
 * runs the rest in the background, forwards TERM and INT to it, and when it ends writes
 * "SHIM_PID WAIT_STATUS" to the exit file (write to a temporary file, then rename) and exits with the
 * same status. The environment is the spec's alone over a standard PATH: nothing of the agent's (its token)
 * leaks into a component.
 */
public record LaunchCommand(List<String> argv, Map<String, String> env, Path workDir) {

    static final String SHIM_NAME = "mesh-shim";
    static final String PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

    /** The shim, in POSIX sh: $1 component, $2 digest, $3 exit file, $4 "--", then the command. */
    static final String SHIM = String.join("\n",
            "exitfile=$3; shift 4; child=; sig=",
            "trap 'sig=TERM; [ -n \"$child\" ] && kill -TERM \"$child\" 2>/dev/null' TERM",
            "trap 'sig=INT; [ -n \"$child\" ] && kill -INT \"$child\" 2>/dev/null' INT",
            "\"$@\" &",
            "child=$!",
            "[ -n \"$sig\" ] && kill -\"$sig\" \"$child\" 2>/dev/null",
            "while :; do",
            "  wait \"$child\"; code=$?",
            "  kill -0 \"$child\" 2>/dev/null || break",
            "done",
            "printf '%s %s\\n' \"$$\" \"$code\" > \"$exitfile.tmp\" && mv -f \"$exitfile.tmp\" \"$exitfile\"",
            "exit \"$code\"");

    static final String BIND_HOSTS = "mount --bind \"$0\" /etc/hosts && exec \"$@\"";

    public LaunchCommand {
        argv = List.copyOf(argv);
        env = Map.copyOf(env);
    }

    public static LaunchCommand of(ProcessSpec spec, Path exitFile, Path hostsFile) {
        List<String> argv = new ArrayList<>(List.of("setsid", "sh", "-c", SHIM, SHIM_NAME, spec.component(), spec.digest(),
                exitFile.toString(), "--",
                "unshare", "--mount", "--propagation", "private", "--",
                "sh", "-c", BIND_HOSTS, hostsFile.toString(),
                Path.of(spec.bundleDir()).resolve(spec.executable()).toString()));
        argv.addAll(spec.args());
        Map<String, String> env = new TreeMap<>();
        env.put("PATH", PATH);
        env.putAll(spec.env());
        return new LaunchCommand(argv, env, Path.of(spec.dataDir()));
    }

    /** The command line of the shim as {@code /proc/PID/cmdline} shows it once {@code setsid} has exec'd it. */
    public List<String> shimCmdline() {
        return argv.subList(1, argv.size());
    }
}
