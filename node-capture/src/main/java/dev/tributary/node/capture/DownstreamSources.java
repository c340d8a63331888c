package dev.tributary.node.capture;

import dev.tributary.capture.RedoSource;
import java.util.Optional;

/**
 * What downstream captures need of other databases (the capture seed's downstream capture): the
 * redo a source shipped here by log transport, and the source itself through the database link
 * named after it. The node adapts log transport to it; capture processes know nothing of gRPC.
 */
public interface DownstreamSources {
    /** The source's received redo, every thread merged in SCN order. */
    RedoSource redo(String sourceDatabase);

    /**
     * Whether the logs received from the source already reach past {@code scn} without a
     * dictionary build beginning there: a capture waiting for that build would wait forever.
     */
    boolean passedWithoutBuild(String sourceDatabase, long scn);

    /** The source through its database link (named as the source's global name), if there is one. */
    Optional<SourceLink> link(String sourceDatabase);

    /** Calls into a source database, as a downstream capture with use_database_link makes them. */
    interface SourceLink {
        /** The source's current SCN. */
        long currentScn();

        /** dbms_capture_adm.build at the source; its SCN. */
        long build();

        /**
         * dbms_capture_adm.prepare_table_instantiation (a {@code ks.t}), prepare_schema_instantiation
         * ({@code ks.*}) or prepare_global_instantiation ({@code *}) at the source.
         */
        void prepare(String object);
    }
}
