package mesh.host;

import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import mesh.api.ApiErrors;
import mesh.plan.SeatKeys;
import mesh.wire.SeatKeyFiles;

/**
 * SeatKeysResource is the standby's half of {@code mesh seat add} (docs/seat.md): the seat's controller, over mutual TLS
 * ({@link HostApiGuard}: only the mesh's controller, only one at the newest epoch), sends the seat's keys and this agent
 * writes them under its state folder where the seat keeps them, each 0600 (written beside and moved into place, so a
 * file is whole or absent). Only the files {@link SeatKeys#FILES} names, and all are checked before any is written.
 */
@Path("/v1/seat/keys")
@Produces(MediaType.APPLICATION_JSON)
public class SeatKeysResource {

    @Inject
    HostAgent agent;

    @PUT
    @Consumes(MediaType.APPLICATION_JSON)
    public synchronized Response keys(SeatKeyFiles body) {
        if (body == null || body.files() == null) {
            return ApiErrors.error(400, "the seat's keys are needed: {\"files\": {PATH: BASE64}}", List.of());
        }
        Map<String, byte[]> files = new LinkedHashMap<>();
        Map<String, Integer> sizes = new LinkedHashMap<>();
        try {
            body.files().forEach((name, b64) -> {
                byte[] content = Base64.getDecoder().decode(b64 == null ? "" : b64);
                files.put(name, content);
                sizes.put(name, content.length);
            });
        } catch (IllegalArgumentException e) {
            return ApiErrors.error(400, "a key is not in base64: " + e.getMessage(), List.of());
        }
        List<String> problems = SeatKeys.problems(sizes);
        if (!problems.isEmpty()) {
            return ApiErrors.error(400, "the seat's keys were refused, nothing was written", problems);
        }
        java.nio.file.Path state = installState(agent.settings().stateDir());
        try {
            for (Map.Entry<String, byte[]> f : files.entrySet()) {
                java.nio.file.Path file = state.resolve(f.getKey());
                Files.createDirectories(file.getParent(), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
                java.nio.file.Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
                Files.deleteIfExists(tmp);
                Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
                Files.write(tmp, f.getValue());
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            }
        } catch (IOException e) {
            return ApiErrors.error(500, "the seat's keys could not be written under " + state + ": " + e.getMessage(), List.of());
        }
        return Response.ok(new mesh.wire.SeatKeysKept(agent.settings().node(), List.copyOf(files.keySet()))).build();
    }

    /**
     * The node's state folder, where {@code mesh install} keeps {@code tls/} and {@code install/}: the agent's own folder
     * is its {@code host/} ({@code MESH_HOST_STATE_DIR}, {@code AgentUnit}); an agent run on a folder of another name
     * keeps the keys in it.
     */
    static java.nio.file.Path installState(java.nio.file.Path agentState) {
        java.nio.file.Path abs = agentState.toAbsolutePath();
        return abs.getFileName() != null && abs.getFileName().toString().equals("host") && abs.getParent() != null ? abs.getParent() : abs;
    }
}
