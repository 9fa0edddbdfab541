package mesh.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import mesh.wire.SecretView;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

@Command(name = "secret",
        mixinStandardHelpOptions = true,
        description = {"The modules' secrets: sealed in the store, given only to the nodes that use them, never shown.",
            "Sealed with AES-256-GCM under a key kept on the seat alone; a node gets a secret only when it runs "
                    + "a component using one (env: {DB_PASSWORD: {secret: db-password}}).",
            "Uses MESH_CONTROLLER and MESH_TOKEN."},
        footerHeading = "%nExamples:%n",
        footer = {"  mesh secret set web db-password < password.txt",
            "  mesh secret list web"})
public class SecretCommand {

    @Spec
    CommandSpec spec;

    final Output output = new Output();

    @Mixin
    OutputOption format;

    @Command(name = "set", mixinStandardHelpOptions = true,
            description = {"Set secret NAME of module MODULE to a value read from stdin or a file.", "The value is read from stdin (one trailing newline dropped) or "
                        + "from --from-file FILE (as it is). Never from the command line: it would stay in the shell's history "
                        + "and in every process listing. 'mesh push' then replaces exactly the components using it."},
            footerHeading = "%nExamples:%n",
            footer = {"  mesh secret set web db-password < password.txt",
                "  mesh secret set web tls-key --from-file key.pem",
                "  mesh push",
                "      gives it to exactly the components that use it"})
    int set(@Parameters(index = "0", paramLabel = "MODULE", description = "the module whose manifest uses the secret") String module,
            @Parameters(index = "1", paramLabel = "NAME", description = "the secret's name, as the manifest gives it") String name,
            @Parameters(index = "2..*", paramLabel = "VALUE", hidden = true, arity = "0..*") List<String> value,
            @Option(names = "--from-file", paramLabel = "FILE", description = "read the value from FILE") Path file) {
        if (value != null && !value.isEmpty()) {
            throw new ParameterException(spec.commandLine(), "mesh secret set takes no value on the command line (it would"
                    + " stay in the shell's history and in 'ps'): give it on stdin (printf %s VALUE | mesh secret set "
                    + module + " " + name + ") or with --from-file FILE; nothing was set");
        }
        SecretView set = ControllerClient.fromEnvironment().api().setSecret(module, name, read(file, module, name));
        if (format.json()) {
            output.json(spec, set);
        } else {
            output.line(spec, "secret " + set.name() + " of module " + set.module() + " set, version " + set.version()
                    + "; 'mesh push' gives it to the components that use it");
        }
        return ExitCodes.OK;
    }

    @Command(name = "list", mixinStandardHelpOptions = true,
            description = {"List the secrets (of MODULE, or all): name, version, when set and by which token. Never a value."},
            footerHeading = "%nExamples:%n",
            footer = {"  mesh secret list",
                "  mesh secret list web -o json"})
    int list(@Parameters(index = "0", paramLabel = "MODULE", arity = "0..1", description = "only this module's secrets") String module) {
        List<SecretView> secrets = ControllerClient.fromEnvironment().api().secrets(module);
        if (format.json()) {
            output.json(spec, secrets);
            return ExitCodes.OK;
        }
        Instant now = Instant.now();
        List<List<String>> rows = new ArrayList<>();
        secrets.forEach(s -> rows.add(List.of(s.module(), s.name(), Integer.toString(s.version()),
                Times.human(s.setAt(), now), s.setBy())));
        output.table(spec, List.of("MODULE", "NAME", "VERSION", "SET", "BY"), rows);
        return ExitCodes.OK;
    }

    @Command(name = "remove", mixinStandardHelpOptions = true,
            description = {"Remove secret NAME of MODULE. Refused while the module's manifest uses it."},
            footerHeading = "%nExamples:%n",
            footer = {"  mesh secret remove web db-password"})
    int remove(@Parameters(index = "0", paramLabel = "MODULE", description = "the module") String module,
               @Parameters(index = "1", paramLabel = "NAME", description = "the secret's name") String name) {
        SecretView gone = ControllerClient.fromEnvironment().api().deleteSecret(module, name);
        if (format.json()) {
            output.json(spec, gone);
        } else {
            output.line(spec, "removed secret " + gone.name() + " of module " + gone.module() + " (it was version " + gone.version() + ")");
        }
        return ExitCodes.OK;
    }

    @Command(name = "rotate-key", mixinStandardHelpOptions = true,
            description = {"Seal every secret again under a new key.", "The seat's secrets key file then keeps the new one alone.",
                "The values do not change, so no component is replaced."},
            footerHeading = "%nExamples:%n",
            footer = {"  mesh secret rotate-key"})
    int rotateKey() {
        Map<String, Object> done = ControllerClient.fromEnvironment().api().rotateSecretsKey();
        if (format.json()) {
            output.json(spec, done);
        } else {
            output.line(spec, "sealed " + done.get("resealed") + " secret(s) again under a new key; the old key is gone");
        }
        return ExitCodes.OK;
    }

    /** The value from {@code file}, or all of stdin with one trailing newline dropped. */
    private String read(Path file, String module, String name) {
        try {
            if (file != null) {
                return Files.readString(file, StandardCharsets.UTF_8);
            }
            String in = new String(System.in.readAllBytes(), StandardCharsets.UTF_8);
            return in.endsWith("\r\n") ? in.substring(0, in.length() - 2) : in.endsWith("\n") ? in.substring(0, in.length() - 1) : in;
        } catch (IOException e) {
            throw new VerbFailure("cannot read the value " + (file == null ? "from stdin" : "from " + file) + ": " + e.getMessage());
        }
    }
}
