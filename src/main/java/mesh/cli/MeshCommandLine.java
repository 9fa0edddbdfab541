package mesh.cli;

import java.util.List;
import picocli.CommandLine;

/**
 * MeshCommandLine builds the one picocli tree every entry point uses, with mesh's error handling.
 *
 * <p>picocli builds a command's model from its annotations by reflection, every verb and option of
 * the tree before it parses a word: for mesh's ~45 commands that was about a third of a short verb's
 * start. So a run that names a verb gets the top command with that verb alone
 * ({@link #forArgs}); the whole tree is built where it is read whole: the top's own help and
 * version, a word that is no verb (picocli's message lists the verbs and suggests the nearest),
 * and {@code mesh completion}, whose script holds every verb.
 */
public final class MeshCommandLine {

    /** The verbs, in the order {@code mesh --help} lists them. */
    static final List<Class<?>> VERBS = List.of(NodeCommand.class, CatalogueCommand.class, AssignCommand.class,
            UnassignCommand.class, PushCommand.class, RollbackCommand.class, TakeCommand.class, DrainCommand.class, BackupCommand.class,
            RestoreCommand.class, StatusCommand.class,
            RosterCommand.class, RouteCommand.class, TokenCommand.class, SecretCommand.class, AuditCommand.class,
            CaCommand.class, MetricsCommand.class, AlertsCommand.class, LogsCommand.class, BundleCommand.class, HostCommand.class,
            ControllerCommand.class, SeatCommand.class, CompletionCommand.class, HelpVerb.class, InstallCommand.class, UpgradeCommand.class,
            UninstallCommand.class);

    /** The verbs that read the whole tree: completion's script holds every verb, help shows any. */
    private static final java.util.Set<Class<?>> WHOLE_TREE = java.util.Set.of(CompletionCommand.class,
            HelpVerb.class);

    private MeshCommandLine() {
    }

    /** The whole tree: every verb. */
    public static CommandLine create(CommandLine.IFactory factory) {
        CommandLine cmd = new CommandLine(MeshCommand.class, factory);
        VERBS.forEach(cmd::addSubcommand);
        return configured(cmd);
    }

    /**
     * The tree {@code args} need: the top command and the verb its first word names, or the whole
     * tree when that word is an option, no verb, or {@code completion}. What the run prints is the
     * same either way (MeshCliTest runs both).
     */
    public static CommandLine forArgs(CommandLine.IFactory factory, String... args) {
        Class<?> verb = args.length == 0 ? null : verbNamed(args[0]);
        if (verb == null || WHOLE_TREE.contains(verb)) {
            return create(factory);
        }
        CommandLine cmd = new CommandLine(MeshCommand.class, factory);
        cmd.addSubcommand(verb);
        return configured(cmd);
    }

    /** The verb class whose {@code @Command} name is {@code word}, or null. */
    static Class<?> verbNamed(String word) {
        for (Class<?> verb : VERBS) {
            if (verb.getAnnotation(CommandLine.Command.class).name().equals(word)) {
                return verb;
            }
        }
        return null;
    }

    /** mesh's handling, set once the verbs are in: picocli's setters reach the subcommands present when called. */
    private static CommandLine configured(CommandLine cmd) {
        cmd.setParameterExceptionHandler(new ShortParseErrors());
        cmd.setExecutionExceptionHandler(new FailureExits());
        cmd.setCaseInsensitiveEnumValuesAllowed(true);
        OperatorValues.register(cmd);
        HelpLayout.apply(cmd);
        return cmd;
    }
}
