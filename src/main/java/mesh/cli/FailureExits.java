package mesh.cli;

import java.io.PrintWriter;
import picocli.CommandLine;

/**
 * FailureExits is the one place where an exception becomes an exit code: a {@link VerbFailure} or a failed call
 * ({@link mesh.wire.CallFailure}) carries a message meant for the operator; anything else is a bug and shows its type too.
 */
final class FailureExits implements CommandLine.IExecutionExceptionHandler {

    @Override
    public int handleExecutionException(Exception ex, CommandLine cmd, CommandLine.ParseResult parsed) {
        PrintWriter err = cmd.getErr();
        if (ex instanceof VerbFailure || ex instanceof mesh.wire.CallFailure) {
            // a call of the controller's API (or the installer's, an agent's) that failed speaks to the operator too
            err.println("mesh: " + ex.getMessage());
        } else if (ex instanceof mesh.client.ControllerApi.BadName bad) {
            err.println("mesh: " + bad.getMessage());
        } else if (ex instanceof mesh.model.InvalidInput invalid) {
            // settings or input checked by the pure layers: every problem, one per line
            err.println("mesh: " + String.join("\n  ", invalid.problems()));
        } else {
            err.println("mesh: internal error: " + ex);
        }
        err.flush();
        return ExitCodes.FAILED;
    }
}
