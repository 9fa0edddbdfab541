package mesh.cli;

import picocli.CommandLine;

/** MeshCommandLine builds the one picocli tree every entry point uses, with mesh's error handling. */
public final class MeshCommandLine {

    private MeshCommandLine() {
    }

    public static CommandLine create(CommandLine.IFactory factory) {
        CommandLine cmd = new CommandLine(MeshCommand.class, factory);
        cmd.setParameterExceptionHandler(new ShortParseErrors());
        cmd.setExecutionExceptionHandler(new FailureExits());
        cmd.setCaseInsensitiveEnumValuesAllowed(true);
        return cmd;
    }
}
