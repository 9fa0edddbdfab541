package mesh.plan;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * AgentUnit writes, purely, the host agent's settings file ({@code host.env}, also the unit's
 * EnvironmentFile) and its systemd unit {@code mesh-host.service}. {@code KillMode=process}: a
 * restart of the agent stops the agent alone, so the processes it supervises keep running and the
 * restarted agent adopts them. Readiness: {@code ExecStartPost} waits until the agent answers.
 */
public final class AgentUnit {

    public static final String UNIT_NAME = "mesh-host.service";
    /** Where {@code mesh install} writes the agent's settings and unit unless told {@code --config-dir}. */
    public static final String DEFAULT_CONFIG_DIR = "/etc/mesh";
    /** The agent's settings file in the config dir, which the local host verbs read too. */
    public static final String SETTINGS_FILE = "host.env";

    private AgentUnit() {
    }

    /**
     * The agent's settings, in the order written; {@code moduleNetworks} ({@code mesh install
     * --module-networks}) is written as {@value NetworkRange#SETTING} when given, else the agent keeps
     * its default range.
     */
    public static Map<String, String> settings(String node, String address, String engine, String stateDir,
                                               String moduleNetworks) {
        Map<String, String> s = new LinkedHashMap<>();
        s.put("MESH_HOST_NODE", node);
        s.put("MESH_HOST_LISTEN", address + ":7701");
        s.put("MESH_HOST_ENGINE", engine);
        s.put("MESH_HOST_STATE_DIR", stateDir + "/host");
        if (moduleNetworks != null) {
            s.put(NetworkRange.SETTING, moduleNetworks.strip());
        }
        return s;
    }

    public static String envFile(Map<String, String> settings) {
        StringBuilder b = new StringBuilder("# The host agent's settings, written by mesh install (mode 0600).\n");
        settings.forEach((k, v) -> b.append(k).append('=').append(v).append('\n'));
        return b.toString();
    }

    /** The unit; {@code launcher} is the installed {@code bin/mesh}. */
    public static String unit(String launcher, String envFile, String address) {
        return String.join("\n",
                "# The mesh host agent, written by mesh install.",
                "[Unit]",
                "Description=mesh host agent",
                "After=network-online.target docker.service",
                "Wants=network-online.target",
                "",
                "[Service]",
                "Type=exec",
                "EnvironmentFile=" + envFile,
                "ExecStart=" + launcher + " host serve --config " + envFile,
                // ready when the agent's port accepts a connection, at most a minute (no '$': systemd would expand it)
                "ExecStartPost=/bin/bash -c 'for i in {1..120}; do "
                        + "(exec 3<>/dev/tcp/" + address + "/7701) 2>/dev/null && exit 0; sleep 0.5; done; exit 1'",
                "Restart=always",
                "RestartSec=2",
                "KillMode=process",
                "",
                "[Install]",
                "WantedBy=multi-user.target",
                "");
    }
}
