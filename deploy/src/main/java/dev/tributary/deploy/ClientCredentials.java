package dev.tributary.deploy;


/**
 * The login a command that connects to a node asked for ({@link ConnectionOptions} reads it):
 * a role and its password. Its {@link #toString()} never holds the password.
 */
record ClientCredentials(String user, String password) {
    static final ClientCredentials NONE = new ClientCredentials(null, null);
    static final String PASSWORD_ENV = "TRIBUTARY_PASSWORD";

    boolean none() {
        return user == null;
    }

    @Override
    public String toString() {
        return none() ? "ClientCredentials[none]" : "ClientCredentials[user=" + user + "]";
    }
}
