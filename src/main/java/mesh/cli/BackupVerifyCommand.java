package mesh.cli;

import java.util.concurrent.Callable;
import mesh.wire.BackupView;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(name = "verify", mixinStandardHelpOptions = true,
        description = {"Check that backup ID reads back whole: every file against its manifest.",
            "The backup is fetched back from the registry (on an agent: the module's node, or another that answers). Names the first file that differs.",
            "The result is kept with the backup ('mesh backup list' shows it).",
            "Exit 0 when every file matches; 1 when one does not, or the backup cannot be read."},
        footerHeading = "%nExamples:%n",
        footer = {"  mesh backup verify 12"})
public class BackupVerifyCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    final Output output = new Output();

    /** The verb's {@code -o}, inherited from {@code mesh backup}: declared there once. */
    @picocli.CommandLine.ParentCommand
    BackupCommand parent;

    @Parameters(paramLabel = "ID", description = "the backup's number (mesh backup list)")
    String id;

    @Override
    public Integer call() {
        ControllerClient controller = ControllerClient.fromEnvironment();
        BackupView b = controller.api().verifyBackup(id);
        if (parent.format.json()) {
            output.json(spec, b);
        } else if (b.verifyError() == null) {
            output.line(spec, "backup " + b.id() + " of " + b.module() + " verified: every file of its " + b.files()
                    + " matches its manifest (" + mesh.plan.Bytes.human(b.bytes()) + ")");
        } else {
            output.error(spec, "mesh: backup " + b.id() + " of " + b.module() + " does not verify: " + b.verifyError());
        }
        return b.verifyError() == null ? ExitCodes.OK : ExitCodes.FAILED;
    }
}
