package mesh.api;

import org.eclipse.microprofile.config.ConfigProvider;

/**
 * ServerRole is what this process was started to serve ("HOST" or "CONTROLLER"), set as a system
 * property before Quarkus boots. The port opens during boot, before the serve verb has read its
 * settings; the API guards use the role to answer "starting, try again" (503) in that window
 * instead of "this process is not one" (404), so a caller never mistakes a booting agent for a
 * wrong address.
 */
public final class ServerRole {

    public static final String PROPERTY = "mesh.serve";
    public static final String HOST = "HOST";
    public static final String CONTROLLER = "CONTROLLER";

    private ServerRole() {
    }

    public static boolean startedAs(String role) {
        // read through MicroProfile Config: system properties are one of its sources, and tests set it per profile
        return role.equals(ConfigProvider.getConfig().getOptionalValue(PROPERTY, String.class).orElse(null));
    }
}
