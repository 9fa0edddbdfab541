package mesh.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import mesh.model.EngineAddress;
import mesh.model.InvalidInput;
import mesh.model.NodeNames;

/**
 * InstallInputs is what the operator gave {@code mesh install}, judged purely before any step runs:
 * each bad value named by its flag. It runs on every invocation, also when the journal says the
 * preflight is done, since a rerun can bring other values. The node's name, address and public
 * domain keep the controller's own rules ({@link NodeNames}), so the installer never seats a node
 * {@code mesh node add} or {@code mesh node public-domain} would refuse.
 *
 * <p>{@code --module-networks} must be a range of at least one module network that overlaps none of the
 * machine's own addresses and routes ({@link NetworkRange#hostConflicts}, the rule the agent keeps at
 * start), so the agent that install starts does not refuse the settings install wrote for it.
 *
 * @param address        the address to be used (given or found), null when none was found: the machine
 *                       preflight names that
 * @param moduleNetworks the range the agent gives module networks from, as given; null for the agent's default
 * @param hostNetworks   the machine's own addresses and routes, as {@code mesh.host.HostNetworks} read them
 * @param rerun          a rerun of a finished join ({@link JoinRerun}): it needs no join token or CA hash
 */
public record InstallInputs(String node, String address, String publicDomain, String storeUrl, String engine,
                            String join, String token, String caHash, String moduleNetworks,
                            List<NetworkRange.HostNet> hostNetworks, boolean rerun) {

    /** MODULE_NETWORKS is the flag that sets the agent's {@value NetworkRange#SETTING}. */
    public static final String MODULE_NETWORKS = "--module-networks";

    public InstallInputs {
        hostNetworks = hostNetworks == null ? List.of() : List.copyOf(hostNetworks);
    }

    /** Inputs without {@code --module-networks}: the agent keeps its default range. */
    public InstallInputs(String node, String address, String publicDomain, String storeUrl, String engine,
                         String join, String token, String caHash) {
        this(node, address, publicDomain, storeUrl, engine, join, token, caHash, null, List.of(), false);
    }

    /** Inputs with {@code --module-networks} (null: the agent's default) and the machine's networks, not a rerun. */
    public InstallInputs(String node, String address, String publicDomain, String storeUrl, String engine,
                         String join, String token, String caHash, String moduleNetworks, List<NetworkRange.HostNet> hostNetworks) {
        this(node, address, publicDomain, storeUrl, engine, join, token, caHash, moduleNetworks, hostNetworks, false);
    }

    /** Inputs without {@code --module-networks}, of a rerun of a finished join or not. */
    public InstallInputs(String node, String address, String publicDomain, String storeUrl, String engine,
                         String join, String token, String caHash, boolean rerun) {
        this(node, address, publicDomain, storeUrl, engine, join, token, caHash, null, List.of(), rerun);
    }

    static final String JDBC_PREFIX = "jdbc:postgresql://";
    static final String HOST = "([A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?|\\[[0-9a-fA-F:.]+\\])";
    static final Pattern JDBC = Pattern.compile("jdbc:postgresql://" + HOST + "(:\\d{1,5})?/[^/\\s?#]+(\\?\\S*)?");
    static final Pattern CONTROLLER = Pattern.compile("https?://" + HOST + "(?::(\\d{1,5}))?/?");

    /** Every problem, each starting with its flag; empty when the inputs are good. */
    public List<String> problems() {
        List<String> problems = new ArrayList<>();
        if (join != null && !rerun && (token == null || node == null)) {
            problems.add("--join needs --token and --node, as 'mesh node add' printed them");
        }
        if (node != null) {
            add(problems, "--node", NodeNames.nameProblem(node));
        }
        if (address != null) {
            String why = NodeNames.addressProblem(address);
            add(problems, "--address", why);
        }
        if (publicDomain != null) {
            add(problems, "--public-domain", NodeNames.domainProblem(publicDomain));
        }
        if (storeUrl != null) {
            add(problems, "--store-url", storeUrlProblem(storeUrl));
        }
        add(problems, "--engine", EngineAddress.problem(engine));
        if (moduleNetworks != null) {
            problems.addAll(moduleNetworksProblems(moduleNetworks, hostNetworks));
        }
        if (join != null) {
            String why = joinProblem(join);
            add(problems, "--join", why);
            if (why == null && !rerun && join.startsWith("https:") && (caHash == null || !caHash.matches("sha256:[0-9a-f]{64}"))) {
                problems.add("--join " + join + " needs --ca-hash sha256:<64 hex digits>, as 'mesh node add' printed it"
                        + (caHash == null ? "" : "; got '" + caHash + "'"));
            }
        }
        return List.copyOf(problems);
    }

    private static void add(List<String> problems, String flag, String problem) {
        if (problem != null) {
            problems.add(flag + ": " + problem);
        }
    }

    /** Why a range for module networks is malformed, too small, or overlaps the machine's own networks; empty when good. */
    static List<String> moduleNetworksProblems(String text, List<NetworkRange.HostNet> host) {
        try {
            return NetworkRange.hostConflicts(NetworkRange.parse(text, MODULE_NETWORKS), host, MODULE_NETWORKS);
        } catch (InvalidInput malformed) {
            return malformed.problems();
        }
    }

    /** Why a store URL is not a PostgreSQL JDBC URL (host, optional port, database, optional parameters), or null. */
    static String storeUrlProblem(String url) {
        String example = " (like jdbc:postgresql://10.0.0.5:5432/mesh?user=mesh&password=P)";
        if (!url.startsWith(JDBC_PREFIX)) {
            return "a PostgreSQL JDBC URL" + example + ", got '" + url + "'";
        }
        if (!JDBC.matcher(url).matches()) {
            return "a PostgreSQL JDBC URL names a host and a database" + example + ", got '" + url + "'";
        }
        return null;
    }

    /** Why a controller URL to join is not one, or null: http(s), a host, an optional port, no more. */
    static String joinProblem(String url) {
        java.util.regex.Matcher m = CONTROLLER.matcher(url);
        if (!m.matches() || (m.group(3) != null && Integer.parseInt(m.group(3)) > 65535)) {
            return "the controller's http(s) URL (like https://10.0.0.11:7700, as 'mesh node add' printed it), got '"
                    + url + "'";
        }
        return null;
    }
}
