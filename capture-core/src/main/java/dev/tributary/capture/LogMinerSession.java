package dev.tributary.capture;

import dev.tributary.capture.redo.DictionaryBuildPart;
import dev.tributary.capture.redo.RedoEntry;
import dev.tributary.dictionary.DictionaryVersion;
import dev.tributary.dictionary.logminer.DictionaryBuilds;
import dev.tributary.dictionary.logminer.LogMinerDictionary;
import java.util.ArrayList;
import java.util.List;

/**
 * The reader's side of a capture's LogMiner dictionary: before any change can be decoded it
 * gathers the dictionary build its dictionary is populated from and loads it; afterwards it
 * applies each DDL record to the dictionary in SCN order, before the entries after it reach the
 * preparers, so a preparer always finds the version in force at its entry's SCN.
 *
 * <p>Not thread-safe: the reader thread owns it.
 */
final class LogMinerSession {
    /** Where the session reports the seed's dictionary states. */
    interface States {
        void at(CaptureState state, String detail);
    }

    private static final int LOADING_STEPS = 2;

    private final LogMinerDictionary dictionary;
    private final List<byte[]> parts = new ArrayList<>();

    /** @param dictionary null when the capture decodes with the node's primary dictionary */
    LogMinerSession(LogMinerDictionary dictionary) {
        this.dictionary = dictionary;
    }

    /** Whether changes can be decoded: the dictionary is loaded. */
    boolean loaded() {
        return dictionary == null || dictionary.loaded();
    }

    /**
     * Mines one entry in redo order.
     *
     * @return whether the entry is a change to capture (not a build record, and the dictionary
     *         is loaded)
     * @throws dev.tributary.dictionary.io.CorruptRecordException if the build does not decode
     * @throws dev.tributary.dictionary.errors.DictionaryException if a DDL record does not fit
     *         the dictionary
     */
    boolean mine(RedoEntry e, States states) {
        if (e.isBuild()) {
            if (!loaded() && e.build().buildScn() == dictionary.buildScn()) {
                collect(e, states);
            }
            return false; // a build never becomes an LCR
        }
        if (!loaded()) {
            return false; // below the build nothing can be decoded
        }
        if (e.isDdl() && dictionary != null) {
            dictionary.applyDdl(e.scn(), e.ddl().change());
        }
        return true;
    }

    private void collect(RedoEntry e, States states) {
        DictionaryBuildPart p = e.build();
        if (p.begin()) {
            parts.clear();
            states.at(CaptureState.DICTIONARY_INITIALIZATION, null);
        } else if (p.part() != parts.size() + 1) {
            throw new dev.tributary.dictionary.io.CorruptRecordException("dictionary build at SCN " + p.buildScn()
                    + ": found part " + p.part() + " after " + parts.size() + " parts");
        }
        parts.add(p.payload());
        states.at(CaptureState.MINING, "PROCESSED SCN = " + e.scn());
        if (p.end()) {
            states.at(CaptureState.LOADING, "step 1 of " + LOADING_STEPS);
            DictionaryVersion version = DictionaryBuilds.assemble(parts);
            states.at(CaptureState.LOADING, "step 2 of " + LOADING_STEPS);
            dictionary.load(version);
            parts.clear();
        }
    }
}
