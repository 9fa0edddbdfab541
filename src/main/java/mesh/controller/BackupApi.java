package mesh.controller;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;
import mesh.wire.BackupRequest;
import mesh.wire.BackupStatus;
import mesh.wire.BackupView;
import mesh.wire.RestoreRequest;
import mesh.wire.RestoreView;

/**
 * BackupApi is the operator's API of backups and restores (docs/backup.md, "API"); {@code mesh backup} and {@code mesh
 * restore} are its clients. Kept beside {@link ControllerResource}, under the same {@code /v1/mesh} and the same guard.
 */
@Path("/v1/mesh")
@Produces(MediaType.APPLICATION_JSON)
@jakarta.ws.rs.Consumes(MediaType.WILDCARD)
public class BackupApi {

    @Inject
    MeshBackup backups;

    @Inject
    MeshRestore restores;

    @Inject
    BackupStatuses statuses;

    /** Begins a backup ({@code mesh backup MODULE}); 202 while it runs. */
    @POST
    @Path("/backups")
    public Response backup(String body) {
        BackupRequest r = Bodies.read(body, BackupRequest.class, "{\"module\"}");
        if (r.module() == null || r.module().isBlank()) {
            throw new mesh.model.InvalidInput(List.of("backup: give the module"));
        }
        return Response.status(202).entity(backups.begin(r.module(), "operator")).build();
    }

    /** The backups, newest first ({@code mesh backup list [MODULE]}). */
    @GET
    @Path("/backups")
    public List<BackupView> list(@QueryParam("module") String module) {
        return backups.list(module == null || module.isBlank() ? null : module);
    }

    /** Each module's backups for {@code mesh status}: last result, schedule, and whether the registry shares its node. */
    @GET
    @Path("/backups/status")
    public List<BackupStatus> status() {
        return statuses.all(java.time.Instant.now());
    }

    @GET
    @Path("/backups/{id}")
    public BackupView backupOf(@PathParam("id") String id) {
        return backups.view(number(id));
    }

    /** Fetches a backup back and checks every file ({@code mesh backup verify ID}); answers when done. */
    @POST
    @Path("/backups/{id}/verify")
    public BackupView verify(@PathParam("id") String id) {
        return backups.verify(number(id));
    }

    /** Begins a restore ({@code mesh restore}); 202 while it runs, 200 with the steps for a dry run. */
    @POST
    @Path("/restores")
    public Response restore(String body) {
        RestoreRequest r = Bodies.read(body, RestoreRequest.class, "{\"module\", \"backup\", \"to\", \"down\", \"dryRun\"}");
        if (r.module() == null || r.module().isBlank()) {
            throw new mesh.model.InvalidInput(List.of("restore: give the module"));
        }
        boolean dryRun = Boolean.TRUE.equals(r.dryRun());
        return Response.status(dryRun ? 200 : 202).entity(restores.begin(r.module(), r.backup(), r.to(), r.down(), dryRun)).build();
    }

    @GET
    @Path("/restores/{id}")
    public RestoreView restoreOf(@PathParam("id") String id) {
        return restores.view(number(id));
    }

    /** The restores under way. */
    @GET
    @Path("/restores")
    public List<RestoreView> restores() {
        return restores.running();
    }

    private static long number(String id) {
        try {
            long n = Long.parseLong(id == null ? "" : id.strip());
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw new mesh.model.InvalidInput(List.of("a backup or restore is named by its number (mesh backup list), got '" + id + "'"));
    }
}
