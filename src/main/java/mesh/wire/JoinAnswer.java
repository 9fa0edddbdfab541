package mesh.wire;

/** JoinAnswer is the joining node's agent certificate, issued by the mesh CA (PEM, with the CA after it), and the CA's. */
public record JoinAnswer(String certificate, String ca) {
}
