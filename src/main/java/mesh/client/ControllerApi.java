package mesh.client;

import com.fasterxml.jackson.databind.JavaType;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import mesh.model.DeclarationJson;
import mesh.model.Node;
import mesh.model.Placement;
import mesh.plan.MeshPlan;
import mesh.wire.AddedNode;
import mesh.wire.AuditEntry;
import mesh.wire.BackupRequest;
import mesh.wire.BackupView;
import mesh.wire.CatalogueChange;
import mesh.wire.EdgeCa;
import mesh.wire.ForgottenCopies;
import mesh.wire.JsonHttp;
import mesh.wire.KeptPush;
import mesh.wire.ManifestFile;
import mesh.wire.ModuleDetail;
import mesh.wire.ModuleView;
import mesh.wire.NewOperatorToken;
import mesh.wire.NodeStatus;
import mesh.wire.NodeToken;
import mesh.wire.NodeView;
import mesh.wire.OperatorToken;
import mesh.wire.PushReport;
import mesh.wire.PushRequest;
import mesh.wire.RestoreRequest;
import mesh.wire.RestoreView;
import mesh.wire.RollbackRequest;
import mesh.wire.RotateReport;
import mesh.wire.RotateRequest;
import mesh.wire.SecretValue;
import mesh.wire.SecretView;
import mesh.wire.TakeRequest;
import mesh.wire.TakeView;

/**
 * ControllerApi is the one typed client of the controller's API ({@code /v1/mesh/...}, {@code /v1/join}):
 * every call by name, with its path, method and types, written here once (Nomad's {@code api/} package is the
 * model: no path string outside it). The CLI and the installer each give it their own transport, token and
 * words for failures ({@link JsonHttp}), so both speak the same calls. Names an operator gives are each one
 * path segment, percent-encoded; "." and ".." are refused, since HTTP would route them elsewhere.
 */
public final class ControllerApi {

    /** The join call, made with a join token before the node has a certificate (the installer's own request). */
    public static final String JOIN = "/v1/join";
    /** The nodes' call: the installer's probe of a controller it joins asks it (any answer: reachable). */
    public static final String NODES = "/v1/mesh/nodes";

    private static final String BACKUPS = "/v1/mesh/backups";
    private static final String RESTORES = "/v1/mesh/restores";

    private final JsonHttp http;
    private final Duration timeout;
    private final Duration whileStarting;

    /** Calls over {@code http}, each bounded by {@code timeout}; a controller that says it is starting is waited for. */
    public ControllerApi(JsonHttp http, Duration timeout, Duration whileStarting) {
        this.http = http;
        this.timeout = timeout;
        this.whileStarting = whileStarting;
    }

    public List<NodeView> nodes() {
        return call("GET", NODES, null, listOf(NodeView.class));
    }

    /** The controller's own build. */
    public mesh.wire.Build build() {
        return call("GET", "/v1/mesh/build", null, mesh.wire.Build.class);
    }

    /** Adds a node; with a join token (its agent joins with it), or without for the seat's own node. */
    public AddedNode addNode(String name, String address, String agent, boolean withJoinToken) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("name", name);
        body.put("address", address);
        body.put("agent", agent == null ? "" : agent);
        if (!withJoinToken) {
            body.put("withJoinToken", false);
        }
        return call("POST", NODES, body, AddedNode.class);
    }

    /** Changes a node's address or agent URL (null: unchanged). */
    public Node setNode(String name, String address, String agent) {
        Map<String, String> body = new LinkedHashMap<>();
        body.put("address", address);
        body.put("agent", agent);
        return call("PUT", path(NODES, name), body, Node.class);
    }

    public NodeToken nodeToken(String name) {
        return call("POST", path(NODES, name, "/token"), null, NodeToken.class);
    }

    public Node publicDomain(String name, String domain) {
        return call("PUT", path(NODES, name, "/public-domain"), Map.of("domain", domain), Node.class);
    }

    /** Cordons a node ({@code cordoned}) or lifts its cordon. */
    public NodeView cordon(String name, boolean cordoned) {
        return call(cordoned ? "PUT" : "DELETE", path(NODES, name, "/cordon"), null, NodeView.class);
    }

    public mesh.wire.DrainView drain(mesh.wire.DrainRequest request) {
        return call("POST", "/v1/mesh/drains", request, mesh.wire.DrainView.class);
    }

    public mesh.wire.DrainView drain(String node) {
        return call("GET", path("/v1/mesh/drains", node), null, mesh.wire.DrainView.class);
    }

    /** The newest drain of each node; {@code running}: only those under way. */
    public List<mesh.wire.DrainView> drains(boolean running) {
        return call("GET", "/v1/mesh/drains" + (running ? "?running=true" : ""), null, listOf(mesh.wire.DrainView.class));
    }

    /** Removes a node; {@code forgetLost}: forget its lost copies not fenced yet ({@code --forget-lost}). */
    public void removeNode(String name, boolean forgetLost) {
        call("DELETE", path(NODES, name) + (forgetLost ? "?forget-lost=true" : ""), null, (JavaType) null);
    }

    public Placement assign(String node, String module) {
        return call("PUT", path(NODES, node, "/modules", module), null, Placement.class);
    }

    /** Unassigns; {@code forced} names the mesh modules to remove all the same. */
    public Placement unassign(String node, String module, List<String> forced) {
        return call("DELETE", path(NODES, node, "/modules", module) + query("force-remove-mesh-module", forced), null,
                Placement.class);
    }

    public EdgeCa edgeCa(String node) {
        return call("GET", path(NODES, node, "/edge/ca"), null, EdgeCa.class);
    }

    /** Each node's status; with {@code refresh} each agent looks at its engine first. */
    public List<NodeStatus> status(boolean refresh) {
        return call("GET", "/v1/mesh/status" + (refresh ? "?refresh=true" : ""), null, listOf(NodeStatus.class));
    }

    public List<ModuleView> catalogue() {
        return call("GET", "/v1/mesh/catalogue", null, listOf(ModuleView.class));
    }

    public CatalogueChange addCatalogue(List<ManifestFile> files) {
        return call("POST", "/v1/mesh/catalogue", files, CatalogueChange.class);
    }

    public ModuleDetail module(String module) {
        return call("GET", path("/v1/mesh/catalogue", module), null, ModuleDetail.class);
    }

    public void removeModule(String module) {
        call("DELETE", path("/v1/mesh/catalogue", module), null, (JavaType) null);
    }

    public List<MeshPlan.RosterEntry> roster() {
        return call("GET", "/v1/mesh/roster", null, listOf(MeshPlan.RosterEntry.class));
    }

    public PushReport push(PushRequest request) {
        return call("POST", "/v1/mesh/push", request, PushReport.class);
    }

    public List<KeptPush> pushes() {
        return call("GET", "/v1/mesh/pushes", null, listOf(KeptPush.class));
    }

    public PushReport rollback(RollbackRequest request) {
        return call("POST", "/v1/mesh/rollback", request, PushReport.class);
    }

    public List<TakeView> takes() {
        return call("GET", "/v1/mesh/takes", null, listOf(TakeView.class));
    }

    public TakeView take(TakeRequest request) {
        return call("POST", "/v1/mesh/takes", request, TakeView.class);
    }

    public TakeView take(String module) {
        return call("GET", path("/v1/mesh/takes", module), null, TakeView.class);
    }

    public ForgottenCopies forgetOldCopies(String module) {
        return call("DELETE", path("/v1/mesh/takes", module, "/old-copies"), null, ForgottenCopies.class);
    }

    public BackupView backup(BackupRequest request) {
        return call("POST", BACKUPS, request, BackupView.class);
    }

    public BackupView backup(long id) {
        return call("GET", path(BACKUPS, Long.toString(id)), null, BackupView.class);
    }

    /** The backups kept, of one module or (null) of all. */
    public List<BackupView> backups(String module) {
        return call("GET", BACKUPS + (module == null ? "" : "?module=" + encode(module)), null, listOf(BackupView.class));
    }

    public BackupView verifyBackup(String id) {
        return call("POST", path(BACKUPS, id, "/verify"), null, BackupView.class);
    }

    public RestoreView restore(RestoreRequest request) {
        return call("POST", RESTORES, request, RestoreView.class);
    }

    public RestoreView restore(long id) {
        return call("GET", path(RESTORES, Long.toString(id)), null, RestoreView.class);
    }

    public List<OperatorToken> tokens() {
        return call("GET", "/v1/mesh/tokens", null, listOf(OperatorToken.class));
    }

    public NewOperatorToken createToken(String name) {
        return call("POST", "/v1/mesh/tokens", Map.of("name", name), NewOperatorToken.class);
    }

    public OperatorToken revokeToken(String name) {
        return call("DELETE", path("/v1/mesh/tokens", name), null, OperatorToken.class);
    }

    /** The alerts as the controller's last look left them, and where it posts them ({@code mesh alerts list}). */
    public mesh.wire.AlertsView alerts() {
        return call("GET", "/v1/mesh/alerts", null, mesh.wire.AlertsView.class);
    }

    public mesh.wire.AlertReceiver addAlertReceiver(String url, boolean check) {
        return call("POST", "/v1/mesh/alerts/receivers", new mesh.wire.AlertReceiverRequest(url, check), mesh.wire.AlertReceiver.class);
    }

    public mesh.wire.AlertReceiver removeAlertReceiver(String url) {
        return call("DELETE", "/v1/mesh/alerts/receivers?url=" + encode(url), null, mesh.wire.AlertReceiver.class);
    }

    /** The audit trail from {@code since} on (all of it when null). */
    public List<AuditEntry> audit(Instant since) {
        // encoded: an instant past year 9999 starts with '+', which a query would read as a space
        return call("GET", "/v1/mesh/audit" + (since == null ? "" : "?since=" + encode(since.toString())), null,
                listOf(AuditEntry.class));
    }

    /** What the controller knows of the seat's state backups: a passphrase set, the newest ones (docs/rebuild.md). */
    public mesh.wire.StateBackupsView stateBackups() {
        return call("GET", "/v1/mesh/state-backups", null, mesh.wire.StateBackupsView.class);
    }

    /** The seat, its epoch and its standbys as the seat's watch last found them (docs/seat.md). */
    public mesh.wire.SeatsView seats() {
        return call("GET", "/v1/mesh/seats", null, mesh.wire.SeatsView.class);
    }

    /** Makes {@code node} a standby of the seat ({@code mesh seat add}). */
    public mesh.wire.StandbyAdded addStandby(String node) {
        return call("POST", path("/v1/mesh/seats", node), null, mesh.wire.StandbyAdded.class);
    }

    /** The mesh's scraper certificate for this public key ({@code mesh metrics scrape-config}, docs/metrics.md). */
    public mesh.wire.ScraperCertificate scraperCertificate(mesh.wire.ScraperRequest request) {
        return call("POST", "/v1/mesh/metrics/scraper", request, mesh.wire.ScraperCertificate.class);
    }

    public RotateReport rotateCerts(RotateRequest request) {
        return call("POST", "/v1/mesh/ca/rotate-certs", request, RotateReport.class);
    }

    /** The secrets of {@code module}, or all when null: never a value. */
    public List<SecretView> secrets(String module) {
        return call("GET", "/v1/mesh/secrets" + (module == null ? "" : "?module=" + encode(module)), null,
                listOf(SecretView.class));
    }

    public SecretView setSecret(String module, String name, String value) {
        return call("PUT", path("/v1/mesh/secrets", module, "", name), new SecretValue(value), SecretView.class);
    }

    public SecretView deleteSecret(String module, String name) {
        return call("DELETE", path("/v1/mesh/secrets", module, "", name), null, SecretView.class);
    }

    /** Seals every secret again under a new key; the answer says how many. */
    public Map<String, Object> rotateSecretsKey() {
        return call("POST", "/v1/mesh/secrets/rotate-key", Map.of(), DeclarationJson.MAPPER.getTypeFactory()
                .constructMapType(Map.class, String.class, Object.class));
    }

    /**
     * The path of the logs of {@code module} (a stream of lines, {@code mesh logs}), of one component when given,
     * with the query of the lines asked for ({@code q}, already encoded; "" for none).
     */
    public static String logs(String module, String component, String q) {
        return path("/v1/mesh/logs", module) + (component == null ? "" : "?component=" + encode(component))
                + (q.isEmpty() ? "" : (component == null ? "?" : "&") + q);
    }

    private <T> T call(String method, String path, Object body, Class<T> answer) {
        return call(method, path, body, DeclarationJson.MAPPER.constructType(answer));
    }

    private <T> T call(String method, String path, Object body, JavaType answer) {
        return http.call(method, path, body, answer, timeout, whileStarting);
    }

    private static JavaType listOf(Class<?> element) {
        return DeclarationJson.MAPPER.getTypeFactory().constructCollectionType(List.class, element);
    }

    /**
     * A path from literal parts and operator-given names (alternating, names first), each name one
     * percent-encoded segment: {@code novox/modules/web} must stay one name, never become another route.
     */
    static String path(String first, String... names) {
        StringBuilder b = new StringBuilder(first);
        for (int i = 0; i < names.length; i++) {
            String part = names[i];
            if (i % 2 == 0 && (part.equals(".") || part.equals("..") || part.isEmpty())) {
                // HTTP removes such segments before routing: the request would reach another call
                throw new BadName(part);
            }
            b.append(i % 2 == 0 ? "/" + encode(part).replace("+", "%20") : part);
        }
        return b.toString();
    }

    private static String query(String name, List<String> values) {
        return values == null || values.isEmpty() ? "" : "?" + String.join("&",
                values.stream().map(v -> name + "=" + encode(v)).toList());
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    /** BadName is an operator-given name that cannot be one path segment ("", "." or ".."): nothing was sent. */
    public static final class BadName extends IllegalArgumentException {
        BadName(String name) {
            super("not a name: '" + name + "'");
        }
    }
}
