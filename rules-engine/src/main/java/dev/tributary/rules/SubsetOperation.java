package dev.tributary.rules;

/**
 * Which of the three rules of add_subset_rules a subset rule is. The INSERT rule selects inserts
 * into the subset and updates that move a row into it (row migration: the UPDATE becomes an
 * INSERT); the DELETE rule selects deletes from the subset and updates that move a row out of it
 * (the UPDATE becomes a DELETE); the UPDATE rule selects updates within the subset.
 */
public enum SubsetOperation {
    INSERT, UPDATE, DELETE
}
