package mesh.controller;

/**
 * AgentAnswer is one agent's answer to a question asked of several at once ({@link AgentClient#askAll}): the
 * value it answered, or why there is none (it did not answer, or refused: the failure's words, which name the
 * node). An agent that answered with no body has neither.
 */
record AgentAnswer<T>(T value, String failure) {

    static <T> AgentAnswer<T> of(T value) {
        return new AgentAnswer<>(value, null);
    }

    static <T> AgentAnswer<T> failed(String why) {
        return new AgentAnswer<>(null, why);
    }

    /** Whether the agent answered with a value. */
    boolean ok() {
        return failure == null && value != null;
    }
}
