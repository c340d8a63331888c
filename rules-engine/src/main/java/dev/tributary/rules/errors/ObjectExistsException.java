package dev.tributary.rules.errors;

/** A rule or rule set with that name already exists. Choose another name or drop the old one. */
public final class ObjectExistsException extends RulesException {
    private final String objectName;

    public ObjectExistsException(String kind, String objectName) {
        super(kind.equals("rule") ? "RULE_EXISTS" : "RULE_SET_EXISTS", kind + " " + objectName + " already exists");
        this.objectName = objectName;
    }

    public String objectName() {
        return objectName;
    }
}
