package dev.tributary.cql.ast;

import java.util.Objects;

/**
 * {@code ALTER SYSTEM SET parameter = 'value'}, {@code ALTER SYSTEM SWITCH LOGFILE} or
 * {@code ALTER SYSTEM ARCHIVE LOG CURRENT}: the
 * database's own settings (log transport), not its schema; neither is captured.
 */
public sealed interface AlterSystem extends Statement permits AlterSystem.Set, AlterSystem.SwitchLogfile,
        AlterSystem.ArchiveLogCurrent {
    /** {@code ALTER SYSTEM SET parameter = 'value'}; the parameter name lowercased. */
    record Set(String parameter, String value) implements AlterSystem {
        public Set {
            Objects.requireNonNull(parameter, "parameter");
            Objects.requireNonNull(value, "value");
        }
    }

    /** {@code ALTER SYSTEM SWITCH LOGFILE}: archives the current redo log now. */
    record SwitchLogfile() implements AlterSystem {
    }

    /**
     * {@code ALTER SYSTEM ARCHIVE LOG CURRENT}: archives the current redo log of every node's thread
     * (Oracle RAC's form), so a downstream capture merging the threads can go past now.
     */
    record ArchiveLogCurrent() implements AlterSystem {
    }
}
