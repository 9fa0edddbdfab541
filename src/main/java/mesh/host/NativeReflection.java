package mesh.host;

import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * NativeReflection registers for the native image what Jackson maps by reflection and no Quarkus
 * extension registers for us: mesh's own records (model/ and plan/ must stay free of Quarkus, so
 * they are named here) and docker-java's request and response models. docker-java has no Quarkus
 * extension; its commands are serialised from the *CmdImpl classes and answers read into
 * api.model / api.command classes, so whole hierarchies are registered.
 */
@RegisterForReflection(targets = {
    mesh.model.Declaration.class,
    mesh.model.ComponentSpec.class,
    mesh.model.HealthCheck.class,
    mesh.plan.PlanView.class,
    mesh.plan.PlanView.Replaced.class,
    mesh.plan.DeclarationChanges.class,
    DeclarationRecord.class,
    HostStatus.class,
    HostStatus.Component.class,
    HostResource.Accepted.class,
    HostResource.Kept.class,
    HostApiErrors.ApiError.class,
    mesh.cli.HostApplyCommand.Result.class,
    mesh.cli.HostHistoryCommand.Entry.class,
    com.github.dockerjava.api.model.Container.class,
    com.github.dockerjava.api.model.ContainerPort.class,
    com.github.dockerjava.api.model.ContainerHostConfig.class,
    com.github.dockerjava.api.model.ContainerNetworkSettings.class,
    com.github.dockerjava.api.model.ContainerNetwork.class,
    com.github.dockerjava.api.model.ContainerMount.class,
    com.github.dockerjava.api.model.Network.class,
    com.github.dockerjava.api.model.Network.Ipam.class,
    com.github.dockerjava.api.model.Network.Ipam.Config.class,
    com.github.dockerjava.api.model.HostConfig.class,
    com.github.dockerjava.api.model.RestartPolicy.class,
    com.github.dockerjava.api.model.Ports.class,
    com.github.dockerjava.api.model.Ports.Binding.class,
    com.github.dockerjava.api.model.PortBinding.class,
    com.github.dockerjava.api.model.ExposedPort.class,
    com.github.dockerjava.api.model.ExposedPorts.class,
    com.github.dockerjava.api.model.Bind.class,
    com.github.dockerjava.api.model.Binds.class,
    com.github.dockerjava.api.model.Volume.class,
    com.github.dockerjava.api.model.Volumes.class,
    com.github.dockerjava.api.model.VolumesFrom.class,
    com.github.dockerjava.api.model.Link.class,
    com.github.dockerjava.api.model.Links.class,
    com.github.dockerjava.api.model.LogConfig.class,
    com.github.dockerjava.api.model.ContainerConfig.class,
    com.github.dockerjava.api.model.NetworkSettings.class,
    com.github.dockerjava.api.model.Event.class,
    com.github.dockerjava.api.model.EventActor.class,
    com.github.dockerjava.api.model.Frame.class,
    com.github.dockerjava.api.model.PullResponseItem.class,
    com.github.dockerjava.api.model.ResponseItem.class,
    com.github.dockerjava.api.model.ResponseItem.ProgressDetail.class,
    com.github.dockerjava.api.model.ResponseItem.ErrorDetail.class,
    com.github.dockerjava.api.command.CreateContainerResponse.class,
    com.github.dockerjava.api.command.CreateNetworkResponse.class,
    com.github.dockerjava.api.command.CreateVolumeResponse.class,
    com.github.dockerjava.api.command.InspectContainerResponse.class,
    com.github.dockerjava.api.command.InspectContainerResponse.ContainerState.class,
    com.github.dockerjava.api.command.InspectContainerResponse.Mount.class,
    com.github.dockerjava.api.command.InspectContainerResponse.Node.class,
    com.github.dockerjava.api.command.InspectVolumeResponse.class,
    com.github.dockerjava.api.command.InspectExecResponse.class,
    com.github.dockerjava.api.command.InspectExecResponse.ProcessConfig.class,
    com.github.dockerjava.api.command.ExecCreateCmdResponse.class,
    com.github.dockerjava.api.command.HealthState.class,
    com.github.dockerjava.api.model.Version.class,
    com.github.dockerjava.api.model.VersionComponent.class,
    com.github.dockerjava.api.model.VersionPlatform.class,
    com.github.dockerjava.core.command.CreateContainerCmdImpl.class,
    com.github.dockerjava.core.command.CreateNetworkCmdImpl.class,
    com.github.dockerjava.core.command.CreateVolumeCmdImpl.class,
    com.github.dockerjava.core.command.ExecCreateCmdImpl.class,
    com.github.dockerjava.core.command.ExecStartCmdImpl.class,
}, registerFullHierarchy = true)
public final class NativeReflection {

    private NativeReflection() {
    }
}
