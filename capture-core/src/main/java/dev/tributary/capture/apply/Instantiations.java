package dev.tributary.capture.apply;

import dev.tributary.capture.lcr.Lcr;
import dev.tributary.capture.log.LogRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The instantiation SCNs of a destination (CAP-INST-2): a change to an object is applied only
 * when it committed after the object's instantiation SCN — the table's, else its schema's. A
 * change to an object with neither is an error (ORA-26687), as in Oracle: applying it could
 * duplicate what a copy of the table already holds, or miss what it lacks.
 *
 * @param tables  by {@link #tableKey}
 * @param schemas by {@link #schemaKey}
 */
public record Instantiations(Map<String, Long> tables, Map<String, Long> schemas) {
    public static final Instantiations NONE = new Instantiations(Map.of(), Map.of());

    public Instantiations {
        tables = Map.copyOf(tables);
        schemas = Map.copyOf(schemas);
    }

    public static String tableKey(String sourceDatabase, String owner, String table) {
        return sourceDatabase.toUpperCase(Locale.ROOT) + ":" + owner.toLowerCase(Locale.ROOT) + "." + table.toLowerCase(Locale.ROOT);
    }

    public static String schemaKey(String sourceDatabase, String owner) {
        return sourceDatabase.toUpperCase(Locale.ROOT) + ":" + owner.toLowerCase(Locale.ROOT);
    }

    /**
     * The records of the transaction to apply: those committed after their object's
     * instantiation SCN, in their order; empty when all of it is older.
     *
     * @throws ApplyErrorException for a change to an object that has no instantiation SCN
     */
    public List<LogRecord> toApply(ApplyTransaction tx) {
        List<LogRecord> kept = new ArrayList<>(tx.records().size());
        for (LogRecord r : tx.records()) {
            Lcr lcr = r.lcr();
            if (ApplyPosition.of(lcr).commitScn() > instantiationScn(lcr)) {
                kept.add(r);
            }
        }
        return kept;
    }

    private long instantiationScn(Lcr lcr) {
        Long t = tables.get(tableKey(lcr.sourceDatabaseName(), lcr.objectOwner(), lcr.objectName()));
        if (t != null) {
            return t;
        }
        Long s = schemas.get(schemaKey(lcr.sourceDatabaseName(), lcr.objectOwner()));
        if (s != null) {
            return s;
        }
        throw new ApplyErrorException(ApplyErrorException.NOT_INSTANTIATED, "no instantiation SCN for "
                + lcr.objectOwner() + "." + lcr.objectName() + " from source database " + lcr.sourceDatabaseName()
                + "; set one with dbms_apply_adm.set_table_instantiation_scn or copy the table with "
                + "dbms_streams_adm.instantiate_table");
    }
}
