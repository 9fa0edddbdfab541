package mesh.host;

import mesh.model.Declaration;

/**
 * DeclarationRecord is one accepted declaration as the host keeps it: when it came, what it said,
 * and where from: a push names itself in the declaration ({@code declaration.push}), a file given
 * to {@code mesh host apply} is named here ({@code file}).
 *
 * @param file the absolute path of the file {@code mesh host apply} read it from, on this node;
 *             null for a push (and in records kept before pushes were named)
 */
public record DeclarationRecord(long generation, String receivedAt, Declaration declaration, String file) {

    /** A pushed declaration's record. */
    public DeclarationRecord(long generation, String receivedAt, Declaration declaration) {
        this(generation, receivedAt, declaration, null);
    }

    /**
     * Where it came from, in words ({@code mesh host history}): "pushed by alice (push 42)", "from
     * file /root/web.json on this node (mesh host apply)", or, for the installer's push to the seat
     * (made before a controller and its audit trail exist), a record kept by an older mesh or one
     * pushed by an older controller, "not named (the installer's first push, or an older mesh)".
     */
    public static String origin(DeclarationRecord r) {
        if (r.file() != null) {
            return "from file " + r.file() + " on this node (mesh host apply)";
        }
        if (r.declaration() != null && r.declaration().push() != null) {
            return r.declaration().push().words();
        }
        return "not named (the installer's first push, or an older mesh)";
    }
}
