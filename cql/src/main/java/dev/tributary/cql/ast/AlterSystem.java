package dev.tributary.cql.ast;

import java.util.Objects;

/**
 * {@code ALTER SYSTEM SET parameter = 'value'} or {@code ALTER SYSTEM SWITCH LOGFILE}: the
 * database's own settings (log transport), not its schema; neither is captured.
 */
public sealed interface AlterSystem extends Statement permits AlterSystem.Set, AlterSystem.SwitchLogfile {
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
}
