package mesh.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * ConfigFile reads the file {@code --config} names (and {@code mesh install} will write): {@code KEY=VALUE} lines, '#' comments,
 * the format of a systemd EnvironmentFile, so one file serves the unit and {@code --config}.
 * The process environment wins over the file, as an operator overriding one value expects.
 */
public final class ConfigFile {

    private ConfigFile() {
    }

    public static Map<String, String> withEnvironment(Path file, Map<String, String> env) {
        Map<String, String> merged = new HashMap<>(file == null ? Map.of() : read(file));
        merged.putAll(env);
        return merged;
    }

    public static Map<String, String> read(Path file) {
        Map<String, String> values = new HashMap<>();
        lines(file).forEach(l -> values.put(l.key(), l.value()));
        return values;
    }

    /** Line is one {@code KEY=VALUE} line of a file, with its number (from 1), so a check can point at it. */
    public record Line(int number, String key, String value) {
    }

    /** The file's {@code KEY=VALUE} lines in order; a line of another shape, or a file that cannot be read, is refused in words. */
    public static List<Line> lines(Path file) {
        List<Line> lines = new ArrayList<>();
        try {
            int n = 0;
            for (String raw : Files.readAllLines(file)) {
                n++;
                String line = raw.strip();
                if (line.isEmpty() || line.startsWith("#")) {
                    continue;
                }
                int eq = line.indexOf('=');
                if (eq <= 0) {
                    throw new VerbFailure(file + ":" + n + ": expected KEY=VALUE, got '" + line + "'");
                }
                String value = line.substring(eq + 1).strip();
                if (value.length() >= 2 && (value.startsWith("\"") && value.endsWith("\"")
                        || value.startsWith("'") && value.endsWith("'"))) {
                    value = value.substring(1, value.length() - 1);
                }
                lines.add(new Line(n, line.substring(0, eq).strip(), value));
            }
        } catch (IOException e) {
            throw new VerbFailure("cannot read config file " + file + ": " + FileProblem.reason(e));
        }
        return lines;
    }
}
