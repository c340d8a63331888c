package dev.tributary.node;

import dev.tributary.node.capture.RedoSegments;
import dev.tributary.node.coord.TransportSettings;
import dev.tributary.node.errors.InvalidRequestException;
import dev.tributary.node.exec.SystemAdmin;
import dev.tributary.node.grpc.ClusterLogSwitches;
import dev.tributary.node.storage.NodeStore;
import dev.tributary.node.transport.LogShipper;

/**
 * ALTER SYSTEM and database links as this node runs them: links and system parameters in
 * ZooKeeper's transport settings (the shipper then ships to the destinations they name),
 * max_disk_bytes on this node's store, log switches on its redo or on every node's.
 *
 * @param replicated whether the store is a replica group's, whose limit is not this node's to change
 */
record NodeSystemAdmin(TransportSettings transport, LogShipper shipper, RedoSegments segments, ClusterLogSwitches logSwitches,
        NodeStore store, boolean replicated) implements SystemAdmin {
    @Override
    public void createLink(String name, String target, String user, String password) {
        transport.createLink(name, target, user, password);
    }

    @Override
    public void dropLink(String name, boolean ifExists) {
        transport.dropLink(name, ifExists);
    }

    @Override
    public void setSystemParameter(String parameter, String value) {
        if (parameter.equalsIgnoreCase("max_disk_bytes")) {
            setMaxDiskBytes(value);
            return;
        }
        transport.setSystemParameter(parameter, value);
        shipper.refreshDestinations(); // the redo keeps what a new destination needs from now on
    }

    /** ALTER SYSTEM SET max_disk_bytes: this node's space limit, until it restarts (then --max-disk-bytes holds). */
    private void setMaxDiskBytes(String value) {
        long bytes;
        try {
            bytes = Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            bytes = -1;
        }
        if (bytes < 0) {
            throw new InvalidRequestException("ALTER SYSTEM SET max_disk_bytes: '" + value + "' is not a number of bytes "
                    + "(0 for no limit)");
        }
        if (replicated) {
            throw new InvalidRequestException("ALTER SYSTEM SET max_disk_bytes is not supported on a replicated node");
        }
        store.setMaxDiskBytes(bytes);
    }

    @Override
    public void switchLogfile() {
        segments.switchLogfile();
    }

    @Override
    public void archiveLogCurrent() {
        logSwitches.archiveAll();
    }
}
