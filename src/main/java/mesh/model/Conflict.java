package mesh.model;

/**
 * Conflict is a request that cannot be carried out in the mesh's present state (a name taken, a
 * module still assigned, a push over budget or already in progress); whatever throws it changed
 * nothing. It says nothing of HTTP: the API's edge ({@code mesh.api.ApiErrors}) answers it with 409.
 */
public class Conflict extends RuntimeException {
    public Conflict(String message) {
        super(message);
    }
}
