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
        // the help text is written in lines of up to ~95 columns; picocli's default 80 breaks them mid-thought
        cmd.setUsageHelpWidth(100);
        return cmd;
    }
}
