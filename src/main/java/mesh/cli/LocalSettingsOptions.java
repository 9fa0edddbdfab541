package mesh.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import mesh.host.HostSettings;
import mesh.plan.AgentUnit;
import mesh.plan.LocalHostSettings;
import picocli.CommandLine.Option;

/**
 * LocalSettingsOptions is where the local host verbs ({@code apply}, {@code history}, {@code logs}) take the agent's
 * settings from: {@code --config FILE}, else {@code --config-dir DIR}'s {@code host.env} (the flag and
 * default {@code mesh install} uses, so on an installed node they read the installed agent's state).
 * It reads the file; {@link LocalHostSettings} decides.
 */
public class LocalSettingsOptions {

    @Option(names = "--config-dir", paramLabel = "DIR", description = "the folder 'mesh install' wrote the agent's settings"
            + " (host.env) in (default " + AgentUnit.DEFAULT_CONFIG_DIR + ", read when it exists); the environment wins over it")
    Path configDir;

    @Option(names = "--config", paramLabel = "FILE", description = "a file of KEY=VALUE lines (the variables below) instead"
            + " of DIR/host.env; the environment wins over it")
    Path config;

    /** Settings is what a verb reads: the agent's settings, and in words where its state dir came from. */
    record Settings(HostSettings host, String stateDirFrom) {
    }

    Settings read(Map<String, String> env) {
        boolean asked = config != null || configDir != null;
        Path file = config != null ? config
                : (configDir != null ? configDir : Path.of(AgentUnit.DEFAULT_CONFIG_DIR)).resolve(AgentUnit.SETTINGS_FILE);
        Map<String, String> fileVars = Files.exists(file) ? ConfigFile.read(file) : null;
        LocalHostSettings s = LocalHostSettings.resolve(env, file.toString(), fileVars, asked);
        if (s.problem() != null) {
            throw new VerbFailure(s.problem());
        }
        return new Settings(HostSettings.forLocal(s.vars()), s.stateDirFrom());
    }
}
