package dev.tributary.rules;

/** Whether a rule is for row changes (DML, the {@code :dml} variable) or DDL changes ({@code :ddl}). */
public enum DmlOrDdl {
    DML, DDL;

    public static DmlOrDdl of(boolean ddl) {
        return ddl ? DDL : DML;
    }
}
