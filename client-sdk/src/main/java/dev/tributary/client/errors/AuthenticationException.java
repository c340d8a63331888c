package dev.tributary.client.errors;

/**
 * The node refused the client's credentials (code UNAUTHENTICATED): a wrong role or password at
 * login, a role that may not log in, or a token the node no longer accepts. The message is the
 * node's and never repeats the password.
 */
public class AuthenticationException extends TributaryException {
    private static final long serialVersionUID = 1L;

    public AuthenticationException(String code, String message, Throwable cause) {
        super(code, message, cause);
    }
}
