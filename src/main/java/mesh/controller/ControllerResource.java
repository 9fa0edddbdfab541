package mesh.controller;

import jakarta.inject.Inject;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;
import mesh.model.Node;
import mesh.model.Placement;
import mesh.plan.MeshPlan;
import mesh.wire.CatalogueChange;
import mesh.wire.ForgottenCopies;
import mesh.wire.TakeRequest;
import mesh.wire.TakeView;
import mesh.wire.ManifestFile;
import mesh.wire.ModuleDetail;
import mesh.wire.ModuleView;
import mesh.wire.NodeChange;
import mesh.wire.NodeToken;
import mesh.wire.NewNode;
import mesh.wire.NodeStatus;
import mesh.wire.NodeView;
import mesh.wire.PublicDomain;
import mesh.wire.PushReport;
import mesh.wire.PushRequest;

/**
 * ControllerResource is the operator's API; the CLI verbs are its clients. Bodies are read as text
 * by {@link Bodies}, whatever their content type, so every malformed one gets a message.
 */
@Path("/v1/mesh")
@Produces(MediaType.APPLICATION_JSON)
@jakarta.ws.rs.Consumes(MediaType.WILDCARD)
public class ControllerResource {

    @Inject
    MeshController controller;

    @Inject
    MeshStatus meshStatus;

    @Inject
    MeshPush pushes;

    @Inject
    MeshEdge edges;

    @Inject
    MeshRollback rollbacks;

    @Inject
    MeshTake takes;

    @Inject
    OldCopies oldCopies;

    @POST
    @Path("/nodes")
    public Response addNode(String body) {
        NewNode n = Bodies.read(body, NewNode.class, "a node: {\"name\", \"address\", \"agent\", \"withJoinToken\"}");
        return Response.status(201).entity(controller.addNode(n.name(), n.address(), n.agent(),
                n.withJoinToken() == null || n.withJoinToken())).build();
    }

    @GET
    @Path("/nodes")
    public List<NodeView> nodes() {
        return controller.nodes();
    }

    /** Which build this controller is ({@code mesh status} shows it beside the agents'). */
    @GET
    @Path("/build")
    public mesh.wire.Build build() {
        return mesh.wire.Build.current();
    }

    /** Each node as the store knows it beside what its agent says now. */
    @GET
    @Path("/status")
    public List<NodeStatus> status(@jakarta.ws.rs.QueryParam("refresh") String refresh) {
        return meshStatus.status(Bodies.flag("refresh", refresh));
    }

    /** Changes a node's address and/or agent URL ({@code mesh node set}). */
    @PUT
    @Path("/nodes/{name}")
    public Node setNode(@PathParam("name") String name, String body) {
        NodeChange change = Bodies.read(body, NodeChange.class, "{\"address\", \"agent\"}");
        return controller.setNode(name, change.address(), change.agent());
    }

    /** Gives a node a new join token ({@code mesh node token NAME --rotate}); the body is ignored. */
    @POST
    @Path("/nodes/{name}/token")
    public NodeToken rotateToken(@PathParam("name") String name) {
        return controller.rotateToken(name);
    }

    @PUT
    @Path("/nodes/{name}/public-domain")
    public Node publicDomain(@PathParam("name") String name, String body) {
        return controller.publicDomain(name, Bodies.read(body, PublicDomain.class, "{\"domain\"}").domain());
    }

    /** The root certificate of the node's edge CA ({@code mesh route ca NODE}), from its agent. */
    @GET
    @Path("/nodes/{name}/edge/ca")
    public mesh.wire.EdgeCa edgeCa(@PathParam("name") String name) {
        return edges.ca(name);
    }

    @DELETE
    @Path("/nodes/{name}")
    public Response removeNode(@PathParam("name") String name, @jakarta.ws.rs.QueryParam("forget-lost") String forgetLost) {
        if (forgetLost != null && !forgetLost.equals("true") && !forgetLost.equals("false")) {
            throw new mesh.model.InvalidInput(List.of("forget-lost: true or false, not '" + forgetLost + "'"));
        }
        controller.removeNode(name, "true".equals(forgetLost));
        return Response.noContent().build();
    }

    @POST
    @Path("/catalogue")
    public CatalogueChange addCatalogue(String body) {
        return controller.addCatalogue(Bodies.read(body, new com.fasterxml.jackson.core.type.TypeReference<
                List<ManifestFile>>() { }, "a list of {\"file\", \"yaml\"}"));
    }

    @GET
    @Path("/catalogue")
    public List<ModuleView> catalogue() {
        return controller.catalogue();
    }

    @GET
    @Path("/catalogue/{module}")
    public ModuleDetail module(@PathParam("module") String module) {
        return controller.module(module);
    }

    @DELETE
    @Path("/catalogue/{module}")
    public Response removeModule(@PathParam("module") String module) {
        controller.removeModule(module);
        return Response.noContent().build();
    }

    @PUT
    @Path("/nodes/{node}/modules/{module}")
    public Placement assign(@PathParam("node") String node, @PathParam("module") String module) {
        return controller.assign(node, module);
    }

    @DELETE
    @Path("/nodes/{node}/modules/{module}")
    public Placement unassign(@PathParam("node") String node, @PathParam("module") String module,
                              @jakarta.ws.rs.QueryParam("force-remove-mesh-module") List<String> forced) {
        return controller.unassign(node, module, forced == null ? java.util.Set.of() : java.util.Set.copyOf(forced));
    }

    @POST
    @Path("/push")
    public PushReport push(String body) {
        PushRequest p = body == null || body.isBlank() ? new PushRequest(List.of(), false, false)
                : Bodies.read(body, PushRequest.class, "{\"nodes\": [...], \"dryRun\", \"yes\", \"forceRemoveMeshModules\": [...]}");
        return pushes.push(p.nodes() == null ? List.of() : p.nodes(), Boolean.TRUE.equals(p.dryRun()),
                Boolean.TRUE.equals(p.yes()), null,
                p.forceRemoveMeshModules() == null ? java.util.Set.of() : java.util.Set.copyOf(p.forceRemoveMeshModules()),
                Boolean.TRUE.equals(p.only()));
    }

    /** Plans the mesh from a kept push's input and pushes it ({@code mesh rollback PUSH}), restoring the catalogue and placements. */
    @POST
    @Path("/rollback")
    public PushReport rollback(String body) {
        mesh.wire.RollbackRequest r = Bodies.read(body, mesh.wire.RollbackRequest.class,
                "{\"push\": ID, \"dryRun\", \"yes\", \"forceRemoveMeshModules\": [...]}");
        if (r.push() == null || r.push() < 1) {
            throw new mesh.model.InvalidInput(List.of("rollback: give the push to roll back to, its id in 'mesh audit'"
                    + " (1 or more), got " + r.push()));
        }
        return rollbacks.rollback(r.push(), Boolean.TRUE.equals(r.dryRun()), Boolean.TRUE.equals(r.yes()),
                r.forceRemoveMeshModules() == null ? java.util.Set.of() : java.util.Set.copyOf(r.forceRemoveMeshModules()));
    }

    /** The pushes whose input is kept, so that they can be rolled back to, newest first. */
    @GET
    @Path("/pushes")
    public List<mesh.wire.KeptPush> pushes() {
        return rollbacks.kept();
    }

    @GET
    @Path("/roster")
    public List<MeshPlan.RosterEntry> roster() {
        return controller.roster();
    }

    /** Starts (or carries on) a take ({@code mesh take NODE MODULE}, {@code mesh take --back MODULE}); 202 while it runs. */
    @POST
    @Path("/takes")
    public Response take(String body) {
        TakeRequest r = Bodies.read(body, TakeRequest.class, "{\"node\", \"module\", \"dryRun\", \"back\", \"stopAndCopy\"}");
        boolean dryRun = Boolean.TRUE.equals(r.dryRun());
        if (r.module() == null || r.module().isBlank()) {
            throw new mesh.model.InvalidInput(List.of("take: give the module"));
        }
        if (Boolean.TRUE.equals(r.back())) {
            if (r.node() != null) {
                throw new mesh.model.InvalidInput(List.of("take --back: give only the module; it goes back where it came from"));
            }
            return Response.status(dryRun ? 200 : 202).entity(takes.back(r.module(), dryRun,
                    Boolean.TRUE.equals(r.stopAndCopy()))).build();
        }
        if (r.node() == null || r.node().isBlank()) {
            throw new mesh.model.InvalidInput(List.of("take: give the node to take module " + r.module() + " to"));
        }
        return Response.status(dryRun ? 200 : 202).entity(takes.take(r.node(), r.module(), dryRun,
                Boolean.TRUE.equals(r.stopAndCopy()))).build();
    }

    /** Every take under way. */
    @GET
    @Path("/takes")
    public List<TakeView> takes() {
        return takes.running();
    }

    /** The module's newest take as it stands: {@code mesh take} follows it with this. */
    @GET
    @Path("/takes/{module}")
    public TakeView takeOf(@PathParam("module") String module) {
        return takes.view(module);
    }

    /** Removes the copies the module's takes left ({@code mesh take --forget-old MODULE}). */
    @DELETE
    @Path("/takes/{module}/old-copies")
    public ForgottenCopies forgetOld(@PathParam("module") String module) {
        return oldCopies.forget(module);
    }
}
