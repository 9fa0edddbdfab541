package mesh.controller;

import jakarta.enterprise.context.RequestScoped;

/**
 * Operator is who makes the current request: the name of the operator token it carried, set by
 * {@link ControllerApiGuard} once the token is accepted and read by {@link AuditTrail}. Request
 * scoped, so no verb has to pass it along by hand.
 */
@RequestScoped
public class Operator {

    private String name;

    public String name() {
        return name;
    }

    void accepted(String tokenName) {
        this.name = tokenName;
    }
}
