package mesh.wire;

import com.fasterxml.jackson.annotation.JsonEnumDefaultValue;

/**
 * Reason is why a request was refused, in a form a program branches on: the {@code reason} of every
 * {@link ApiError}, beside the message a person reads. Callers decide on the reason, never on the
 * sentence (the message may be reworded at any time). Kubernetes' {@code Status.Reason} is the model.
 * Each reason's usual HTTP status is given; the status alone is not enough to branch on (a 409 is a
 * stale generation, a push in progress or a fenced controller).
 */
public enum Reason {
    /** 400: the request or its body is wrong; the message names what. */
    INVALID,
    /** 400: a JSON body with a field this server does not know (it reads strictly). */
    UNKNOWN_FIELD,
    /** 400: a declaration for another node than this agent's. */
    WRONG_NODE,
    /** 401: no credential, or not the right one. */
    UNAUTHORIZED,
    /** 404: the thing named is not there. */
    NOT_FOUND,
    /** 404 or 405: the API has no such call (path or method). */
    NO_SUCH_CALL,
    /** 404: a controller's call sent to a host agent (MESH_CONTROLLER names an agent). */
    HOST_AGENT,
    /** 404: a call sent to a process that does not serve that API. */
    WRONG_SERVER,
    /** 409: the mesh's present state forbids it. */
    CONFLICT,
    /** 409: a declaration not newer than the last one this agent accepted. */
    NOT_NEWER,
    /** 409: another push is in progress. */
    BUSY,
    /** 409: this controller has been replaced by a newer one (its epoch is fenced) and refuses every write. */
    FENCED,
    /**
     * 409: a call from a controller whose seat was replaced by a promote (an older controller epoch than the newest
     * the agent saw); the message names the deposed controller and the current seat (docs/seat.md).
     */
    DEPOSED,
    /** 409: an epoch older than the newest this node saw for the module: a newer take (or backup) holds it. */
    NEWER_EPOCH,
    /** 409: a volume that is not this node's old copy of the take at the epoch named (forgotten, or a later take's). */
    NOT_OLD_COPY,
    /** 409: a volume this node did not copy in for the take at the epoch named. */
    NOT_TAKES_COPY,
    /** 409: the mesh's plan failed; nothing was sent. */
    PLAN_FAILED,
    /** 413: a body over the size limit. */
    TOO_LARGE,
    /** 500: a bug; the server's log says more. */
    INTERNAL,
    /** 502: a node's agent, asked on the caller's behalf, did not answer or refused. */
    AGENT_FAILED,
    /** 503 with Retry-After: the server is starting; ask again. */
    STARTING,
    /** 503: something the server needs (its engine, its store) did not answer. */
    UNAVAILABLE,
    /** A reason this program does not know (a newer server's), and the answer of a server from before reasons. */
    @JsonEnumDefaultValue
    OTHER;

    /** The reason a refusal with this HTTP status has when nothing more specific is said. */
    public static Reason of(int status) {
        return switch (status) {
            case 400 -> INVALID;
            case 401, 403 -> UNAUTHORIZED;
            case 404 -> NOT_FOUND;
            case 405 -> NO_SUCH_CALL;
            case 409 -> CONFLICT;
            case 413 -> TOO_LARGE;
            case 500 -> INTERNAL;
            case 502 -> AGENT_FAILED;
            case 503 -> UNAVAILABLE;
            default -> OTHER;
        };
    }
}
