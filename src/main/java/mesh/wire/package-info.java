/**
 * mesh.wire is the one contract spoken over HTTP: every request and answer body of the
 * controller's API ({@code /v1/mesh/...}) and of the host agent's ({@code /v1/...}), used alike by
 * the servers that write them and the clients that read them (the controller's AgentClient, the
 * CLI's ControllerClient), and {@link mesh.wire.JsonHttp}, the protocol both clients speak. States
 * are enums whose JSON is the lower-case word docs/cli.md shows. Plain records: no service, store or
 * HTTP stack is reached from here.
 */
package mesh.wire;
