package mesh.host;

import mesh.wire.Reason;
import mesh.api.Refusal;
import mesh.wire.Accepted;
import mesh.wire.HostStatus;
import mesh.wire.Kept;

import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;
import java.util.Optional;
import mesh.model.Declaration;
import mesh.model.DeclarationJson;
import mesh.plan.HostPlan;
import mesh.wire.PlanView;

/**
 * HostResource is the agent's API. Every refusal leaves the agent as it was: the declaration is
 * parsed and checked in full before anything is recorded.
 */
@Path("/v1")
@Produces(MediaType.APPLICATION_JSON)
public class HostResource {

    @Inject
    HostAgent agent;

    @PUT
    @Path("/declaration")
    @Consumes(MediaType.WILDCARD)
    public Response put(String body) {
        Declaration d = DeclarationJson.parse(body == null ? "" : body);
        Optional<HostPlan> plan;
        try {
            plan = agent.accept(d);
        } catch (HostFailure e) {
            throw refusal(e);
        }
        return Response.status(201)
                .entity(new Accepted(d.node(), d.generation(), agent.applied(d.generation()), plan.map(HostPlanView::of).orElse(null),
                        plan.isPresent() ? null : "recorded; the engine did not answer, the agent applies it when it does"))
                .build();
    }

    /** What a declaration would change here, computed against the engine; nothing is recorded or applied. */
    @jakarta.ws.rs.POST
    @Path("/plan")
    @Consumes(MediaType.WILDCARD)
    public PlanView plan(String body) {
        Declaration d = DeclarationJson.parse(body == null ? "" : body);
        try {
            return HostPlanView.of(agent.preview(d));
        } catch (HostFailure e) {
            throw refusal(e);
        }
    }

    /** The answer to a host use case that failed: 400 another node's, 409 not newer, 503 the engine did not answer. */
    static Refusal refusal(HostFailure e) {
        if (!(e instanceof DeclarationRefused refused)) {
            return new Refusal(503, e.getMessage());
        }
        return switch (refused.reason()) {
            case NOT_NEWER -> new Refusal(409, Reason.NOT_NEWER, e.getMessage());
            case OTHER_NODE -> new Refusal(400, Reason.WRONG_NODE, e.getMessage());
            case MISSING_SECRET -> new Refusal(400, Reason.INVALID, e.getMessage());
        };
    }

    @GET
    @Path("/status")
    public HostStatus status(@jakarta.ws.rs.QueryParam("refresh") String refresh,
                             @jakarta.ws.rs.QueryParam("generation") String generation,
                             @jakarta.ws.rs.QueryParam("wait") String wait) {
        // ?refresh=true (mesh status --refresh): a pass now, so the answer is as of this moment
        if ("true".equals(refresh)) {
            return agent.statusAfterPass();
        }
        // ?generation=G&wait=30s: once G is applied, or a pass over it ended (mesh.plan.StatusWait)
        if (generation != null) {
            try {
                agent.state().await(mesh.plan.StatusWait.parse(generation, wait));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return agent.status();
        }
        if (wait != null) {
            throw new Refusal(400, Reason.INVALID, "wait needs generation: the generation to wait for");
        }
        return agent.status();
    }

    @GET
    @Path("/declarations")
    public List<Kept> declarations() {
        return agent.records().generations().stream()
                .map(g -> agent.records().read(g).orElseThrow())
                .map(r -> new Kept(r.generation(), r.receivedAt(), r.declaration().components().size(),
                        r.declaration().push(), r.file()))
                .toList();
    }

    @GET
    @Path("/declarations/{generation}")
    public DeclarationRecord declaration(@PathParam("generation") String generation) {
        long g;
        try {
            g = Long.parseLong(generation);
        } catch (NumberFormatException e) {
            throw new Refusal(400, "generation must be a number, got '" + generation + "'");
        }
        return agent.records().read(g)
                .orElseThrow(() -> new Refusal(404, "no declaration of generation " + g + " was accepted here"));
    }
}
