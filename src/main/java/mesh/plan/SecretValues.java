package mesh.plan;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import mesh.model.ComponentSpec;
import mesh.model.SecretRef;

/**
 * SecretValues is every secret the planner may give a component: module to secret name to its
 * current setting (version, keyed hash, value), opened by the controller before planning so the
 * planner stays pure (as {@link BundlePins} are resolved first). {@link #resolve} is the rule.
 */
public record SecretValues(Map<String, Map<String, SecretRef>> byModule) {

    public static final SecretValues NONE = new SecretValues(Map.of());

    public SecretValues {
        byModule = byModule == null ? Map.of() : Map.copyOf(byModule);
    }

    /**
     * {@code spec} with each secret it names filled in from its module's secrets; each one its module
     * does not have is a problem naming the node, the component, the module and the secret.
     */
    public ComponentSpec resolve(ComponentSpec spec, String node, List<String> problems) {
        if (spec.secrets().isEmpty()) {
            return spec;
        }
        Map<String, SecretRef> mine = byModule.getOrDefault(spec.module(), Map.of());
        Map<String, SecretRef> filled = new TreeMap<>();
        spec.secrets().forEach((variable, ref) -> {
            SecretRef set = mine.get(ref.secret());
            if (set == null) {
                problems.add("node " + node + ": component " + spec.name() + " (" + spec.module() + "): env " + variable
                        + " uses secret " + ref.secret() + ", which module " + spec.module() + " does not have ('mesh secret set "
                        + spec.module() + " " + ref.secret() + "' sets it)");
                filled.put(variable, ref);
            } else {
                filled.put(variable, set);
            }
        });
        return spec.withSecrets(filled);
    }
}
