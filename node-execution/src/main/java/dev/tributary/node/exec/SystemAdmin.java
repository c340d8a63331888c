package dev.tributary.node.exec;

/**
 * The statements about the database system, as the node carries them out: database links,
 * ALTER SYSTEM SET (archive destinations for the cluster, max_disk_bytes for this node) and log
 * switches.
 */
public interface SystemAdmin {
    /** CREATE DATABASE LINK; user and password null when it connects without credentials. */
    void createLink(String name, String target, String user, String password);

    void dropLink(String name, boolean ifExists);

    /** ALTER SYSTEM SET parameter = 'value' (log_archive_dest_N, max_disk_bytes). */
    void setSystemParameter(String parameter, String value);

    /** ALTER SYSTEM SWITCH LOGFILE: archives the current redo log of this node's thread now. */
    void switchLogfile();

    /** ALTER SYSTEM ARCHIVE LOG CURRENT: archives the current redo log of every node's thread now. */
    void archiveLogCurrent();
}
