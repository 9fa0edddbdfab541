package mesh.cli;

import java.util.concurrent.Callable;
import mesh.wire.StandbyAdded;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** SeatAddCommand makes a joined node the seat's standby ({@code mesh seat add NODE}; docs/seat.md). */
@Command(name = "add",
        mixinStandardHelpOptions = true,
        description = {"Make a joined node the seat's standby: a hot standby of the store through PostgreSQL's own streaming replication, and the seat's keys.",
            "The seat's store gets a replication role, a replication slot for the node and a pg_hba.conf line that lets it "
                    + "stream; the seat's keys (the mesh CA's key, the secrets key, the store's password, the admin token, the "
                    + "recovery key when set) are sent to the node's agent over the mesh's TLS and kept there 0600 as on the "
                    + "seat, never in the store; the module mesh-standby is placed on the node: the seat's store image, filled "
                    + "once by pg_basebackup, then streaming. Once it has caught up the seat makes it synchronous (a write the "
                    + "controller acknowledged is then on both machines); a standby away for more than 10 s is made "
                    + "asynchronous again, and 'mesh status' says since when it is not in sync.",
            "Run on a promoted seat for the seat it deposed, it makes the old seat the standby, never a second seat: the "
                    + "deposed store and controller are let go there (their volume stays, kept aside) and its standby is a module "
                    + "of its own, mesh-standby-NODE, filled by a fresh base backup from the new seat.",
            "Running it again is safe: the role's password is set anew and the keys are sent again."},
        footerHeading = "%nExamples:%n",
        footer = {"  mesh seat add n2",
            "      then 'mesh status' shows the standby, in sync or not",
            "  mesh seat add n1",
            "      on the seat n2 promoted when n1 died, once n1 is back: n1 becomes its standby"})
public class SeatAddCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    final Output output = new Output();

    @Mixin
    OutputOption format;

    @Parameters(index = "0", paramLabel = "NODE", description = "the joined node to make the standby")
    String node;

    @Override
    public Integer call() {
        StandbyAdded added = ControllerClient.fromEnvironment().api().addStandby(node);
        if (format.json()) {
            output.json(spec, added);
        } else {
            added.done().forEach(d -> output.line(spec, "  " + d));
            output.line(spec, "standby " + added.node() + " added; 'mesh status' shows whether it is in sync");
            output.line(spec, configLine(added.url()));
        }
        return ExitCodes.OK;
    }

    /**
     * The operator's config ({@code ~/.config/mesh/config}) names the standby's controller after the seats it named, so
     * the CLI finds it once promoted (docs/seat.md, "The CLI finds the seat"); when MESH_CONTROLLER comes from the
     * environment or there is no file, the line to add is said instead.
     */
    private String configLine(String url) {
        java.nio.file.Path file = ControllerClient.configFile(System.getenv());
        String env = System.getenv("MESH_CONTROLLER");
        if (env != null || file == null || !java.nio.file.Files.isRegularFile(file)) {
            return "name it to the CLI: MESH_CONTROLLER=" + mesh.plan.SeatPromote.withStandby(env, url);
        }
        try {
            java.util.List<String> lines = new java.util.ArrayList<>(java.nio.file.Files.readAllLines(file));
            boolean found = false;
            for (int i = 0; i < lines.size(); i++) {
                if (lines.get(i).startsWith("MESH_CONTROLLER=")) {
                    lines.set(i, "MESH_CONTROLLER=" + mesh.plan.SeatPromote.withStandby(lines.get(i).substring("MESH_CONTROLLER=".length()), url));
                    found = true;
                }
            }
            if (!found) {
                return "name it to the CLI: MESH_CONTROLLER=" + mesh.plan.SeatPromote.withStandby(null, url);
            }
            java.nio.file.Path tmp = file.resolveSibling("config.tmp");
            java.nio.file.Files.deleteIfExists(tmp);
            java.nio.file.Files.createFile(tmp, java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                    java.nio.file.attribute.PosixFilePermissions.fromString("rw-------")));
            java.nio.file.Files.write(tmp, lines);
            java.nio.file.Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            return file + " names it after the seat: MESH_CONTROLLER lists both";
        } catch (java.io.IOException e) {
            return "cannot write " + file + " (" + e.getMessage() + "): name it to the CLI: MESH_CONTROLLER=" + url;
        }
    }
}
