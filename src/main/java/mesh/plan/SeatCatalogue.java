package mesh.plan;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import mesh.model.Declaration;
import mesh.model.Manifest;
import mesh.model.ManifestYaml;
import mesh.model.Node;
import mesh.model.Placement;



/**
 * SeatCatalogue is the built-in catalogue mesh install adds (mesh-store, mesh-registry,
 * mesh-controller), filled in with this mesh's values, and the seat's declarations planned from it
 * by the same {@link MeshPlanner} the controller uses: what the installer pushes to the agent
 * before a controller exists is exactly what the controller plans later, so the controller's first
 * push replaces nothing. Pure: the manifests' texts come in, as the installer read them from its
 * resources.
 */
public final class SeatCatalogue {

    public static final String STORE = "mesh-store";
    public static final String REGISTRY = "mesh-registry";
    public static final String CONTROLLER = "mesh-controller";
    public static final List<String> MODULES = List.of(STORE, REGISTRY, CONTROLLER);

    private static final Pattern SLOT = Pattern.compile("@([A-Z_]+)@");

    private SeatCatalogue() {
    }

    /** Each template with every {@code @KEY@} replaced; a key with no value is an error naming it. */
    public static Map<String, String> fill(Map<String, String> templates, Map<String, String> values) {
        Map<String, String> filled = new LinkedHashMap<>();
        templates.forEach((module, text) -> {
            Matcher m = SLOT.matcher(text);
            StringBuilder b = new StringBuilder();
            while (m.find()) {
                String v = values.get(m.group(1));
                if (v == null) {
                    throw new IllegalArgumentException("the built-in manifest " + module + " needs a value for " + m.group(1));
                }
                m.appendReplacement(b, Matcher.quoteReplacement(v));
            }
            m.appendTail(b);
            filled.put(module, b.toString());
        });
        return filled;
    }

    /**
     * The seat's declaration at {@code generation} running {@code modules} (a subset of the catalogue,
     * in the order raised), planned from the filled manifests.
     */
    public static Declaration declaration(Node seat, Map<String, String> filled, List<String> modules, long generation) {
        return declaration(seat, filled, modules, generation, SecretValues.NONE);
    }

    /**
     * The same with the secrets the built-in manifests use ({@code mesh-store}'s password), which the
     * installer sets in the store later through the controller with the same value, version and hash,
     * so that push replaces nothing either.
     */
    public static Declaration declaration(Node seat, Map<String, String> filled, List<String> modules, long generation,
                                          SecretValues secrets) {
        List<Manifest> catalogue = new ArrayList<>();
        List<Placement> placements = new ArrayList<>();
        for (String module : modules) {
            catalogue.add(ManifestYaml.parse(module + ".yaml", filled.get(module)));
            placements.add(new Placement(module, seat.name(), seat.name()));
        }
        MeshPlan plan = MeshPlanner.plan(catalogue, List.of(seat), placements, BundlePins.NONE, secrets);
        return new Declaration(seat.name(), seat.address(), generation, plan.nodes().get(seat.name()));
    }
}
