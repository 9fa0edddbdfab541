package mesh.host.process;

import com.fasterxml.jackson.core.JsonProcessingException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import mesh.model.DeclarationJson;

/**
 * ProcessSpec is what the supervisor runs for one component of process form: the executable of an
 * unpacked bundle, its arguments and environment, its data directory and the host entries it binds.
 *
 * <p>{@code dataDir} is the working directory and survives replaces: the supervisor creates it when
 * missing and never deletes it. {@code hosts} (name → address) becomes the process's whole
 * {@code /etc/hosts} besides localhost, so it resolves exactly the names it binds. {@code digest} is the
 * spec's identity: same digest, the running process is left alone; another one, it is replaced. The
 * caller passes the component's spec digest; {@link #digestOf} computes one where there is none.
 */
public record ProcessSpec(
        String component,
        String module,
        String bundleDir,
        String executable,
        List<String> args,
        Map<String, String> env,
        String dataDir,
        Map<String, String> hosts,
        long stopTimeoutMillis,
        String digest) {

    static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9._-]{0,62}");
    static final Pattern HOST_NAME = Pattern.compile("[A-Za-z0-9*]([A-Za-z0-9.*-]{0,252})");
    static final Pattern ADDRESS = Pattern.compile("[0-9A-Fa-f:.]{2,45}");
    static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    public ProcessSpec {
        args = args == null ? List.of() : List.copyOf(args);
        env = env == null ? Map.of() : Map.copyOf(new TreeMap<>(env));
        hosts = hosts == null ? Map.of() : Map.copyOf(new TreeMap<>(hosts));
    }

    /** A spec whose digest is computed from its other fields (see {@link #digestOf}). */
    public static ProcessSpec of(String component, String module, String bundleDir, String executable, List<String> args,
            Map<String, String> env, String dataDir, Map<String, String> hosts, long stopTimeoutMillis) {
        ProcessSpec draft = new ProcessSpec(component, module, bundleDir, executable, args, env, dataDir, hosts,
                stopTimeoutMillis, "");
        return new ProcessSpec(component, module, bundleDir, executable, args, env, dataDir, hosts, stopTimeoutMillis,
                digestOf(draft));
    }

    /**
     * digestOf is SHA-256 over the canonical JSON of every field that the process is started with (the stop
     * timeout and the digest itself excepted: changing how long a stop may take restarts nothing).
     */
    public static String digestOf(ProcessSpec s) {
        Map<String, Object> canonical = new TreeMap<>();
        canonical.put("component", s.component());
        canonical.put("module", s.module());
        canonical.put("bundleDir", s.bundleDir());
        canonical.put("executable", s.executable());
        canonical.put("args", s.args());
        canonical.put("env", new TreeMap<>(s.env()));
        canonical.put("dataDir", s.dataDir());
        canonical.put("hosts", new TreeMap<>(s.hosts()));
        try {
            byte[] json = DeclarationJson.MAPPER.writeValueAsString(canonical).getBytes(StandardCharsets.UTF_8);
            return "sha256:" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(json));
        } catch (JsonProcessingException | NoSuchAlgorithmException e) {
            throw new IllegalStateException("cannot digest the spec of " + s.component(), e);
        }
    }

    /** Every problem with this spec, each naming the field; empty when it can be run. */
    public List<String> problems() {
        List<String> p = new ArrayList<>();
        if (component == null || !NAME.matcher(component).matches()) {
            p.add("component name '" + component + "' must be 1-63 characters of a-z, 0-9, '.', '_' or '-'");
        }
        if (module == null || module.isBlank()) {
            p.add("component " + component + ": module is missing");
        }
        if (bundleDir == null || !bundleDir.startsWith("/")) {
            p.add("component " + component + ": bundle directory '" + bundleDir + "' must be an absolute path");
        }
        if (executable == null || executable.isBlank() || executable.startsWith("/") || List.of(executable.split("/")).contains("..")) {
            p.add("component " + component + ": executable '" + executable + "' must be a path inside the bundle directory");
        }
        if (dataDir == null || !dataDir.startsWith("/")) {
            p.add("component " + component + ": data directory '" + dataDir + "' must be an absolute path");
        }
        env.keySet().stream().filter(k -> !ENV_NAME.matcher(k).matches())
                .forEach(k -> p.add("component " + component + ": environment variable name '" + k + "' is not valid"));
        hosts.forEach((name, address) -> {
            if (!HOST_NAME.matcher(name).matches()) {
                p.add("component " + component + ": host name '" + name + "' is not valid");
            }
            if (address == null || !ADDRESS.matcher(address).matches()) {
                p.add("component " + component + ": address '" + address + "' of " + name + " is not an IP address");
            }
        });
        if (stopTimeoutMillis <= 0) {
            p.add("component " + component + ": stop timeout must be positive, was " + stopTimeoutMillis + " ms");
        }
        if (digest == null || digest.isBlank() || digest.chars().anyMatch(Character::isWhitespace)) {
            p.add("component " + component + ": spec digest is missing");
        }
        return p;
    }

    /** The hosts file the process sees as {@code /etc/hosts}: localhost and exactly the names it binds. */
    public String hostsFile() {
        StringBuilder b = new StringBuilder("127.0.0.1 localhost\n::1 localhost\n");
        new TreeMap<>(hosts).forEach((name, address) -> b.append(address).append(' ').append(name).append('\n'));
        return b.toString();
    }
}
