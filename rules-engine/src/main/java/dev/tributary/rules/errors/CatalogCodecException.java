package dev.tributary.rules.errors;

/** Stored rule catalog bytes could not be read (truncated, corrupt, or an unknown format version). */
public final class CatalogCodecException extends RulesException {
    public CatalogCodecException(String message, Throwable cause) {
        super("CATALOG_CORRUPT", message, cause);
    }
}
