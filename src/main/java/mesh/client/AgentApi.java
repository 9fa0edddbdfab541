package mesh.client;

import com.fasterxml.jackson.databind.JavaType;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import mesh.model.Declaration;
import mesh.model.DeclarationJson;
import mesh.model.VolumeManifest;
import mesh.wire.Accepted;
import mesh.wire.AgentCertificate;
import mesh.wire.AgentKey;
import mesh.wire.BundlesAnswer;
import mesh.wire.BundlesRequest;
import mesh.wire.CertificateServed;
import mesh.wire.DiskView;
import mesh.wire.EdgeCa;
import mesh.wire.FenceLifted;
import mesh.wire.FenceView;
import mesh.wire.HostStatus;
import mesh.wire.ImagesAnswer;
import mesh.wire.ImagesRequest;
import mesh.wire.OldCopyRequest;
import mesh.wire.PlanView;
import mesh.wire.ReadTicket;
import mesh.wire.TakeEpoch;
import mesh.wire.VolumeView;

/**
 * AgentApi is the host agent's API as typed calls, written here once: each is a value (method, path, body,
 * the answer's type), built with no I/O, and run by whoever holds a connection to an agent (the controller's
 * {@code AgentClient}, with its mutual TLS and its bounds; another agent, for a copy's source). Kamal keeps
 * its commands as values in one place and runs them in another; this is that for the agent's calls. The
 * streamed calls (a copy, logs, a volume's index and archive) are given as paths: their callers read a stream.
 */
public final class AgentApi {

    private AgentApi() {
    }

    /** Call is one request of the agent's API and the type of its answer (null: none read). */
    public record Call<T>(String method, String path, Object body, JavaType answer) {
    }

    public static Call<PlanView> preview(Declaration d) {
        return call("POST", "/v1/plan", d, PlanView.class);
    }

    public static Call<Accepted> push(Declaration d) {
        return call("PUT", "/v1/declaration", d, Accepted.class);
    }

    /** The agent's status; with {@code refresh}, after a pass run now ({@code mesh status --refresh}). */
    public static Call<HostStatus> status(boolean refresh) {
        return call("GET", "/v1/status" + (refresh ? "?refresh=true" : ""), null, HostStatus.class);
    }

    /** The seat's keys, sent to a standby by the seat's controller ({@code mesh seat add}; docs/seat.md). */
    public static Call<mesh.wire.SeatKeysKept> seatKeys(mesh.wire.SeatKeyFiles keys) {
        return call("PUT", "/v1/seat/keys", keys, mesh.wire.SeatKeysKept.class);
    }

    public static Call<EdgeCa> edgeCa() {
        return call("GET", "/v1/edge/ca", null, EdgeCa.class);
    }

    public static Call<BundlesAnswer> bundles(BundlesRequest request) {
        return call("POST", "/v1/bundles", request, BundlesAnswer.class);
    }

    public static Call<ImagesAnswer> images(ImagesRequest request) {
        return call("POST", "/v1/images", request, ImagesAnswer.class);
    }

    public static Call<DiskView> disk() {
        return call("GET", "/v1/disk", null, DiskView.class);
    }

    public static Call<FenceView> fence(String module, long epoch) {
        return call("PUT", "/v1/fences/" + seg(module), new TakeEpoch(epoch), FenceView.class);
    }

    /** On a take's target: fence the module and create its containers as {@code declaration} has them, not started. */
    public static Call<mesh.wire.TakeCreated> createFenced(String module, long epoch, mesh.model.Declaration declaration) {
        return call("PUT", "/v1/fences/" + seg(module) + "/created", new mesh.wire.TakeCreate(epoch, declaration),
                mesh.wire.TakeCreated.class);
    }

    public static Call<FenceLifted> unfence(String module, long epoch) {
        return call("DELETE", "/v1/fences/" + seg(module) + "?epoch=" + epoch, null, FenceLifted.class);
    }

    public static Call<ReadTicket> ticket(String module, long epoch) {
        return call("POST", volumes(module) + "/tickets", new TakeEpoch(epoch), ReadTicket.class);
    }

    /** A pre-copy ticket: reads the module's volumes while it runs there. */
    public static Call<ReadTicket> liveTicket(String module, long epoch) {
        return call("POST", volumes(module) + "/live-tickets", new TakeEpoch(epoch), ReadTicket.class);
    }

    public static Call<List<VolumeView>> volumes(String module, String kind) {
        return new Call<>("GET", volumes(module) + "?kind=" + kind, null,
                DeclarationJson.MAPPER.getTypeFactory().constructCollectionType(List.class, VolumeView.class));
    }

    /** A volume's manifest; {@code warm}: made before the fence of a pre-copied take, so that the verify reads only what changed. */
    public static Call<VolumeManifest> manifest(String module, String volume, String kind, boolean warm) {
        return call("GET", volume(module, volume) + "/manifest?kind=" + kind + (warm ? "&warm=true" : ""), null,
                VolumeManifest.class);
    }

    public static Call<Void> oldCopy(String module, long epoch, List<String> volumes) {
        return new Call<>("POST", volumes(module) + "/old-copy", new OldCopyRequest(epoch, volumes), null);
    }

    public static Call<Void> delete(String module, String volume, String kind, long epoch, String reason) {
        return new Call<>("DELETE", volume(module, volume) + "?kind=" + kind + "&epoch=" + epoch + "&reason=" + reason,
                null, null);
    }

    /** A new key pair on the agent; its public key is the answer, its private key stays there. */
    public static Call<AgentKey> newKey() {
        return call("POST", "/v1/tls/key", null, AgentKey.class);
    }

    public static Call<CertificateServed> serve(AgentCertificate certificate) {
        return call("PUT", "/v1/tls/certificate", certificate, CertificateServed.class);
    }

    /** The path of the target's copy of a volume (POST, progress lines as application/x-ndjson). */
    public static String copy(String module, String volume) {
        return volume(module, volume) + "/copy";
    }

    /** The path of a module's backup (POST, progress lines as application/x-ndjson). */
    public static String backup(String module) {
        return BACKUPS + "/" + seg(module);
    }

    /** The path of a module's restore from a backup (POST, progress lines as application/x-ndjson). */
    public static String restore(String module) {
        return backup(module) + "/restore";
    }

    /** The path of a backup's verify (POST, progress lines as application/x-ndjson). */
    public static String verifyBackup() {
        return BACKUPS + "/verify";
    }

    private static final String BACKUPS = "/v1/backups";

    /** The path of a component's logs (a stream of lines), with the lines' query ({@code q}, encoded; "" for none). */
    public static String logs(String component, String q) {
        return "/v1/logs/" + seg(component) + (q.isEmpty() ? "" : "?" + q);
    }

    /** The path of one volume of a module: its {@code /index} and {@code /archive} are what a copy reads from the source. */
    public static String volume(String module, String volume) {
        return volumes(module) + "/" + seg(volume);
    }

    private static String volumes(String module) {
        return "/v1/volumes/" + seg(module);
    }

    private static <T> Call<T> call(String method, String path, Object body, Class<T> answer) {
        return new Call<>(method, path, body, DeclarationJson.MAPPER.constructType(answer));
    }

    /** One path segment: percent-encoded, a space as %20. */
    private static String seg(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
