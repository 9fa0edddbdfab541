package mesh.cli;

import java.util.List;
import mesh.wire.RotateReport;
import mesh.wire.RotateRequest;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "ca",
        mixinStandardHelpOptions = true,
        description = {"The mesh CA's certificates: the controller's and each node agent's.",
            "They are issued by the CA that 'mesh install' made on the seat (docs/trust.md). Uses MESH_CONTROLLER, MESH_TOKEN and MESH_CA."},
        footerHeading = "%nExamples:%n",
        footer = {"  mesh ca rotate-certs",
            "  mesh status",
            "      warns 30 days before a certificate expires"})
public class CaCommand {

    @Spec
    CommandSpec spec;

    final Output output = new Output();

    @Mixin
    OutputOption format;

    @Command(name = "rotate-certs", mixinStandardHelpOptions = true,
            description = {"Reissue the certificates of every node's agent, then the controller's, before they expire.",
                "No component is restarted: each serves its new certificate from its next connection on.",
                "Each agent makes its new key itself and gets only its certificate from the controller, so no "
                        + "private key crosses the network. The seat's controller does it (it holds the CA's key).",
                "A node whose agent does not answer keeps its old certificate, is named, and the exit status is 1; "
                        + "run it again once the agent is back. 'mesh status' warns 30 days before a certificate expires."},
            footerHeading = "%nExamples:%n",
            footer = {"  mesh ca rotate-certs",
                "      every agent, then the controller",
                "  mesh ca rotate-certs --node ace",
                "      ace's agent only"})
    int rotateCerts(@Option(names = "--node", paramLabel = "NAME",
            description = "only this node's agent (repeat for more); the controller's certificate is then left as it is")
                    List<String> only) {
        List<String> asked = only == null ? List.of() : only;
        RotateReport report = ControllerClient.fromEnvironment().api().rotateCerts(new RotateRequest(asked));
        if (format.json()) {
            output.json(spec, report);
        } else {
            for (RotateReport.Party p : report.parties()) {
                if (p.reissued()) {
                    output.line(spec, p.party() + ": reissued, valid until " + p.notAfter() + " (serial " + p.serial() + ")");
                } else if (!p.wasAsked()) {
                    output.line(spec, p.party() + ": left as it is, " + p.why());
                } else {
                    output.error(spec, p.party() + ": left with its old certificate: " + p.why());
                }
            }
        }
        return report.complete() ? ExitCodes.OK : ExitCodes.FAILED;
    }
}
