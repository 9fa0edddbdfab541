package mesh.plan;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import mesh.model.Cidr;

/**
 * NetworkRange is the rule for the module networks' subnets on a node (docs/declaration.md, "Module
 * networks"). Docker's default address pools hold about 30 bridge networks, and every module gets its own,
 * so a hub of 50 modules ran out; the mesh therefore hands each new module network a {@value #SLOT_PREFIX}
 * of a range it owns ({@code MESH_HOST_NETWORKS}, default {@link #DEFAULT}: 1,024 networks of 61
 * containers each).
 *
 * <p>The rule, pure: a network that exists keeps whatever subnet it has (the engine is the record, so a
 * module's subnet is stable across agent and engine restarts, and a network made before this rule, from
 * Docker's pools, is left as it is); a missing one gets the <em>lowest</em> slot of the range that overlaps
 * none of the engine's networks (all of them, not only the mesh's) and none of the node's addresses and
 * routes but the default route (the routes Docker's own allocator checks). Lowest-free rather than a hash:
 * no collisions to probe, and the same state always gives the same answer.
 */
public final class NetworkRange {

    /** SLOT_PREFIX: each module network is a /26, 62 addresses (the gateway takes one): a module's containers fit with room. */
    public static final int SLOT_PREFIX = 26;
    /** DEFAULT_TEXT is {@link #DEFAULT} as written, for help texts (a constant expression). */
    public static final String DEFAULT_TEXT = "10.213.0.0/16";
    /** DEFAULT is the range an agent uses unless told: RFC 1918 space rarely used by LANs or VPNs, 1,024 slots. */
    public static final Cidr DEFAULT = Cidr.parse(DEFAULT_TEXT, "the default range");
    /** SETTING names the agent's variable in every message. */
    public static final String SETTING = "MESH_HOST_NETWORKS";

    /** Docker's own bridges: docker0 and a user network's br-&lt;first 12 hex of its id&gt;. */
    private static final Pattern ENGINE_DEVICE = Pattern.compile("docker0|docker_gwbridge|br-[0-9a-f]{12}");

    private NetworkRange() {
    }

    /**
     * HostNet is one of the node's own networks: an interface address with its subnet ({@code address} set),
     * or a route to {@code net} ({@code address} null), on {@code device}.
     */
    public record HostNet(String device, String address, Cidr net) {
        public static HostNet address(String device, String address, int prefix) {
            return new HostNet(device, address, Cidr.enclosing(Cidr.address(address), prefix));
        }

        public static HostNet route(String device, Cidr net) {
            return new HostNet(device, null, net);
        }

        boolean isDefaultRoute() {
            return address == null && net.prefix() == 0;
        }

        String describe() {
            return address != null ? "address " + address + "/" + net.prefix() + " on " + device
                    : "route to " + net + " on " + device;
        }
    }

    /** Reads {@code MESH_HOST_NETWORKS}: absent or blank is {@link #DEFAULT}; else a network of at least one slot. */
    public static Cidr parse(String text) {
        if (text == null || text.isBlank()) {
            return DEFAULT;
        }
        return parse(text, SETTING);
    }

    /**
     * Reads a range given as {@code what} (the agent's setting, or {@code mesh install}'s flag, which
     * names it in every message): a network of at least one slot; nothing is a default here.
     */
    public static Cidr parse(String text, String what) {
        Cidr range = Cidr.parse(text, what);
        if (range.prefix() > SLOT_PREFIX) {
            throw new mesh.model.InvalidInput(List.of(what + " " + range + " is smaller than one module network (a /"
                    + SLOT_PREFIX + "): give a /" + SLOT_PREFIX + " or larger, e.g. a /16 for 1,024 modules"));
        }
        return range;
    }

    /** How many module networks the range holds. */
    public static int slots(Cidr range) {
        return (int) (range.size() >> (32 - SLOT_PREFIX));
    }

    /**
     * hostConflicts is the check that refuses a range overlapping the node's own addresses or routes (the
     * default route aside): a bridge inside them would shadow the node's own traffic. Docker's own bridges
     * (docker0, br-…) are the engine's networks, which the range may share: the rule skips their subnets.
     * Empty when the range is fine. Pure; the agent runs it at start and {@code mesh install}'s preflight
     * runs it on {@code --module-networks} ({@link InstallInputs}), both with {@code mesh.host.HostNetworks.read()}.
     */
    public static List<String> hostConflicts(Cidr range, List<HostNet> host) {
        return hostConflicts(range, host, SETTING);
    }

    /** The same, each problem naming the range as {@code what} gave it (a setting or a flag). */
    public static List<String> hostConflicts(Cidr range, List<HostNet> host, String what) {
        Set<String> problems = new LinkedHashSet<>();
        for (HostNet h : host) {
            if (!h.isDefaultRoute() && !ENGINE_DEVICE.matcher(h.device()).matches() && range.overlaps(h.net())) {
                problems.add(what + " " + range + " overlaps this node's " + h.describe()
                        + ": choose a range the node does not use (the module networks would hide it)");
            }
        }
        return List.copyOf(problems);
    }

    /** The subnets a new module network must not overlap: the engine's, and the node's own but the default route. */
    public static List<Cidr> taken(Collection<Cidr> engineSubnets, List<HostNet> host) {
        List<Cidr> taken = new ArrayList<>(engineSubnets);
        host.stream().filter(h -> !h.isDefaultRoute()).map(HostNet::net).forEach(taken::add);
        return taken;
    }

    /**
     * The lowest slot of {@code range} that overlaps nothing {@code taken}, for {@code network} of
     * {@code module}; {@link Exhausted} naming both and the range when none is left.
     */
    public static Cidr pick(Cidr range, String network, String module, Collection<Cidr> taken) {
        int slots = slots(range);
        for (int i = 0; i < slots; i++) {
            Cidr slot = new Cidr(range.base() + (i << (32 - SLOT_PREFIX)), SLOT_PREFIX);
            if (taken.stream().noneMatch(slot::overlaps)) {
                return slot;
            }
        }
        throw new Exhausted(range, network, module, slots);
    }

    /** The gateway of a module network: its first address, as Docker would choose. */
    public static String gateway(Cidr subnet) {
        return subnet.addressAt(1);
    }

    /** Exhausted is a range with no free slot left: its message names the range, the network and the module. */
    public static final class Exhausted extends PlanFailure {
        public Exhausted(Cidr range, String network, String module, int slots) {
            super(List.of("no free /" + SLOT_PREFIX + " left in " + SETTING + " " + range + " for network " + network
                    + " of module " + module + ": all " + slots + " overlap the engine's networks or this node's"
                    + " addresses and routes; give the node a larger " + SETTING + " or place fewer modules on it"));
        }
    }
}
