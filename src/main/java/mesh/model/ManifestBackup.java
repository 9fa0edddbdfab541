package mesh.model;

import java.util.List;
import java.util.Map;
import mesh.model.ManifestNodes.Field;
import org.yaml.snakeyaml.nodes.Node;

/**
 * ManifestBackup reads a manifest's backup fields (docs/backup.md): the module's {@code backup: {every, keep,
 * volumes, registry}} and a component's {@code backup: [command...]}, checking each where it stands in the file.
 */
final class ManifestBackup {

    static final List<String> FIELDS = List.of("every", "keep", "volumes", "registry");
    /** At most this many backups kept per module. */
    static final int MAX_KEEP = 1000;

    private ManifestBackup() {
    }

    /** The module's {@code backup:}, or null when it has none (or it is wrong: the problems say why). */
    static Manifest.Backup module(ManifestNodes nodes, Field f) {
        if (f == null || ManifestNodes.isNull(f.value())) {
            return null;
        }
        Map<String, Field> b = nodes.mapping(f.value(), "backup", "backup is a mapping {every: 24h, keep: 7, volumes: [..],"
                + " registry: URL}, each optional", FIELDS);
        if (b == null) {
            return null;
        }
        Long every = null;
        if (ManifestReader.given(b, "every")) {
            String text = nodes.text(b.get("every").value(), "backup.every");
            Long seconds = text == null ? null : everySeconds(text);
            if (text != null && seconds == null) {
                nodes.problem(b.get("every").value(), "backup.every", "must be a period like 24h, 30m or 7d (a bare number"
                        + " is seconds), at least 1m, got " + ManifestNodes.quoted(text));
            }
            every = seconds;
        }
        Integer keep = ManifestReader.given(b, "keep") ? nodes.number(b.get("keep").value(), "backup.keep", 1, MAX_KEEP) : null;
        List<String> volumes = ManifestReader.given(b, "volumes")
                ? nodes.texts(b.get("volumes").value(), "backup.volumes", "a list of the module's volume names") : List.of();
        String registry = null;
        if (ManifestReader.given(b, "registry")) {
            registry = nodes.text(b.get("registry").value(), "backup.registry");
            if (registry != null && !registry.matches("https?://[^/\\s]+(:[0-9]+)?/?")) {
                nodes.problem(b.get("registry").value(), "backup.registry", "must be a registry's URL like http://10.0.0.5:5000,"
                        + " got " + ManifestNodes.quoted(registry));
                registry = null;
            }
        }
        return new Manifest.Backup(every, keep, volumes == null ? List.of() : volumes, registry);
    }

    /** The seconds of a period like {@code 24h} ({@link DurationText}); null when it is not one, or shorter than a minute. */
    static Long everySeconds(String text) {
        if (DurationText.problem(text) != null) {
            return null;
        }
        long s = DurationText.parse(text).toSeconds();
        return s < 60 ? null : s;
    }

    /** A component's {@code backup:} command, or null when it has none. */
    static List<String> command(ManifestNodes nodes, Map<String, Field> c, String path, boolean process) {
        if (!ManifestReader.given(c, "backup")) {
            return null;
        }
        Node value = c.get("backup").value();
        if (process) {
            nodes.problem(value, path + ".backup", "a backup command runs in a container; a process keeps its data in its"
                    + " volumes, which are backed up with the module stopped");
            return null;
        }
        List<String> words = nodes.texts(value, path + ".backup", "a command as a list of words, like [sh, -c, \"pg_dump ...\"]");
        if (words != null && words.isEmpty()) {
            nodes.problem(value, path + ".backup", "is empty; give the command that makes the copy, or leave backup out");
            return null;
        }
        return words;
    }

    /** The checks across the module: the volumes a backup names are the module's own. */
    static void crossChecks(Manifest m, Field f, ManifestNodes nodes) {
        if (m.backup() == null || f == null) {
            return;
        }
        java.util.Set<String> declared = new java.util.TreeSet<>();
        m.components().values().forEach(c -> declared.addAll(c.volumes().keySet()));
        for (String v : m.backup().volumes()) {
            if (!declared.contains(v)) {
                nodes.problem(f.value(), "backup.volumes", "names " + ManifestNodes.quoted(v) + ", which no component of module "
                        + m.module() + " declares (volumes: " + (declared.isEmpty() ? "none" : String.join(", ", declared)) + ")");
            }
        }
    }
}
