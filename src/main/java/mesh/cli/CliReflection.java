package mesh.cli;

import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * CliReflection registers for the native image the documents only the CLI writes with
 * {@code -o json} (the APIs' bodies are mesh.wire's, registered in mesh.NativeReflection).
 */
@RegisterForReflection(targets = {
    CatalogueCheckReport.Report.class,
    CatalogueCheckReport.Module.class,
    HostApplyCommand.Result.class,
    HostHistoryCommand.Entry.class,
    InstallCommand.Summary.class,
    SeatBackupListCommand.Entry.class,
    mesh.install.Uninstall.Report.class,
    mesh.install.InstallRunner.Outcome.class,
    UpgradeRun.Report.class,
    UpgradeRun.Move.class,
})
final class CliReflection {

    private CliReflection() {
    }
}
