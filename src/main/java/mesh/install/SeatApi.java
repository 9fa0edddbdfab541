package mesh.install;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import mesh.client.ControllerApi;
import mesh.client.HttpTransport;
import mesh.wire.ApiError;
import mesh.wire.CallFailure;
import mesh.wire.JsonHttp;
import mesh.wire.ModuleView;
import mesh.wire.NodeView;
import mesh.wire.PushReport;

/**
 * SeatApi is the installer's connection to a controller (the temporary one, then the permanent one):
 * the one {@link HttpTransport} over the mesh CA, the operator token, and the few calls an install makes, each
 * one of {@link ControllerApi}'s, the client the CLI speaks too. Each failure is a {@link CallFailure}; a refusal
 * keeps the controller's own message, with its status and reason.
 */
public final class SeatApi {

    private final String base;
    /** The controller's API: its calls bounded by 10 s, a push's by 5 minutes; a starting controller waited for 15 s. */
    private final ControllerApi api;
    private final ControllerApi pushes;

    /** A client of the controller at {@code base}, over {@code tls} (trusting only the mesh CA). */
    public SeatApi(String base, String token, javax.net.ssl.SSLContext tls) {
        this.base = base.replaceAll("/+$", "");
        JsonHttp http = new JsonHttp(new HttpTransport(tls, HttpTransport.CONNECT).to(this.base), token, new JsonHttp.Words() {
            @Override
            public String unreachable(Exception e) {
                String tlsProblem = mesh.trust.TlsFailure.describe(e, SeatApi.this.base);
                return "cannot reach the controller at " + SeatApi.this.base + ": "
                        + (tlsProblem != null ? tlsProblem : e.getMessage() == null ? "no answer" : e.getMessage());
            }

            @Override
            public String refused(JsonHttp.Answer a, ApiError error) {
                return "the controller at " + SeatApi.this.base + " answered " + a.status() + ": "
                        + (error == null ? a.body() : error.error());
            }

            @Override
            public String unreadable(JsonHttp.Answer a, String detail) {
                return "the controller at " + SeatApi.this.base + " answered something unreadable: " + detail;
            }
        });
        this.api = new ControllerApi(http, Duration.ofSeconds(10), Duration.ofSeconds(15));
        this.pushes = new ControllerApi(http, Duration.ofMinutes(5), Duration.ofSeconds(15));
    }

    public String base() {
        return base;
    }

    public List<NodeView> nodes() {
        return api.nodes();
    }

    /** Every node's status through this controller: each agent it reaches records its epoch ({@code mesh seat promote}). */
    public List<mesh.wire.NodeStatus> status() {
        return api.status(false);
    }

    public List<ModuleView> modules() {
        return api.catalogue();
    }

    /**
     * Adds the seat's own node, without a join token (its certificate is issued here, on the seat),
     * with its public domain when one was given ({@code mesh install --public-domain}); a node
     * already there (a rerun) is kept, its public domain set again.
     */
    public void addNode(String name, String address, String publicDomain) {
        try {
            api.addNode(name, address, "", false);
        } catch (CallFailure e) {
            if (!e.refused(409)) {
                throw e;
            }
        }
        if (publicDomain != null) {
            api.publicDomain(name, publicDomain);
        }
    }

    public void addCatalogue(Map<String, String> manifests) {
        api.addCatalogue(manifests.entrySet().stream()
                .map(e -> new mesh.wire.ManifestFile(e.getKey() + ".yaml", e.getValue())).toList());
    }

    /** Whether module {@code module} has secret {@code name} in the store. */
    public boolean hasSecret(String module, String name) {
        return api.secrets(module).stream().anyMatch(s -> s.name().equals(name));
    }

    /** Sets secret {@code name} of {@code module} (over HTTPS to the controller, which seals it). */
    public void setSecret(String module, String name, String value) {
        api.setSecret(module, name, value);
    }

    public void assign(String node, String module) {
        api.assign(node, module);
    }

    public PushReport push() {
        return pushes.push(new mesh.wire.PushRequest(null, false, true));
    }

    /**
     * Pushes node {@code node} alone, replacements allowed (its modules are new): every other node is sent nothing, even
     * when its declaration differs (a rebuild adopts the fleet as it runs).
     */
    public PushReport pushOnly(String node) {
        return pushes.push(new mesh.wire.PushRequest(List.of(node), false, true, null, true));
    }
}
