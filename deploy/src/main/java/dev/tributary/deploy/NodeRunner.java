package dev.tributary.deploy;

/** Runs a node in the foreground with the {@code node} subcommand's arguments; returns the exit status. */
@FunctionalInterface
public interface NodeRunner {
    int run(String[] args) throws Exception;

    /** The node of node-server. */
    static NodeRunner nodeServer() {
        return dev.tributary.node.NodeMain::run;
    }
}
