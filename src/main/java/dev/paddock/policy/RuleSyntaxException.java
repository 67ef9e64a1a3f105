package dev.paddock.policy;

import dev.paddock.common.PaddockException;

/** A permission rule that does not parse; the message names the rule and says what is wrong with it. */
public final class RuleSyntaxException extends PaddockException {
    private static final long serialVersionUID = 1L;

    public RuleSyntaxException(String message) {
        super(message);
    }
}
