package mesh.cli;

import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import mesh.wire.NewOperatorToken;
import mesh.wire.OperatorToken;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(name = "token",
        mixinStandardHelpOptions = true,
        description = {"The operator tokens: named, revocable, each kept by the controller only as a hash.",
            "The controller's MESH_CONTROLLER_TOKEN is the token named 'admin' (the one mesh install writes into "
                    + "~/.config/mesh/config). Every write is recorded under the name of its token ('mesh audit').",
            "Uses MESH_CONTROLLER and MESH_TOKEN."},
        footerHeading = "%nExamples:%n",
        footer = {"  mesh token create alice",
            "  mesh token list"})
public class TokenCommand {

    @Spec
    CommandSpec spec;

    final Output output = new Output();

    @Mixin
    OutputOption format;

    @Command(name = "create", mixinStandardHelpOptions = true,
            description = {"Make an operator token named NAME and print it once.", "Give it to its holder as MESH_TOKEN.",
                "A name is never reused, even once revoked, so the audit trail stays unambiguous."},
            footerHeading = "%nExamples:%n",
            footer = {"  mesh token create alice",
                "      prints alice's token once: give it to her as MESH_TOKEN"})
    int create(@Parameters(paramLabel = "NAME", description = "the token's name, e.g. who holds it") String name) {
        NewOperatorToken made = ControllerClient.fromEnvironment().api().createToken(name);
        if (format.json()) {
            output.json(spec, made);
        } else {
            output.line(spec, "operator token " + made.name() + " (shown once; the controller keeps only its hash):");
            output.line(spec, made.token());
        }
        return ExitCodes.OK;
    }

    @Command(name = "list", mixinStandardHelpOptions = true,
            description = {"List the operator tokens: name, when made and by whom, when last used, when revoked."},
            footerHeading = "%nExamples:%n",
            footer = {"  mesh token list"})
    int list() {
        List<OperatorToken> tokens = ControllerClient.fromEnvironment().api().tokens();
        if (format.json()) {
            output.json(spec, tokens);
            return ExitCodes.OK;
        }
        Instant now = Instant.now();
        output.table(spec, List.of("NAME", "CREATED", "BY", "LAST USED", "REVOKED"),
                tokens.stream().map(t -> Arrays.asList(t.name(), Times.human(t.created(), now), t.createdBy(),
                        Times.human(t.lastUsed(), now), t.revoked() == null ? "-" : Times.human(t.revoked(), now))).toList());
        return ExitCodes.OK;
    }

    @Command(name = "revoke", mixinStandardHelpOptions = true,
            description = {"Revoke an operator token: the controller refuses it from its next request on.",
                "The last token that is not revoked cannot be: create another first."},
            footerHeading = "%nExamples:%n",
            footer = {"  mesh token revoke alice"})
    int revoke(@Parameters(paramLabel = "NAME", description = "the token's name, e.g. who holds it") String name) {
        OperatorToken revoked = ControllerClient.fromEnvironment().api().revokeToken(name);
        if (format.json()) {
            output.json(spec, revoked);
        } else {
            output.line(spec, "revoked operator token " + revoked.name() + "; it is refused from now on");
        }
        return ExitCodes.OK;
    }
}
