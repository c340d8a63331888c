package dev.tributary.node.exec;

/** The statements of log transport, as the node carries them out (database links, archive destinations, log switches). */
public interface LogTransportAdmin {
    void createLink(String name, String target);

    void dropLink(String name, boolean ifExists);

    /** ALTER SYSTEM SET parameter = 'value'. */
    void setSystemParameter(String parameter, String value);

    /** ALTER SYSTEM SWITCH LOGFILE: archives the current redo log of this node's thread now. */
    void switchLogfile();
}
