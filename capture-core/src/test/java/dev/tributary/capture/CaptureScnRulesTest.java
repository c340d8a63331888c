package dev.tributary.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class CaptureScnRulesTest {
    private static final long CURRENT = 1_000;

    private static CaptureScnRules.Existing started(String name, long first, long dictionary, long checkpoint) {
        return new CaptureScnRules.Existing(name, first, dictionary, true, checkpoint);
    }

    private static CaptureScnRules.Existing neverStarted(String name, long first, long dictionary) {
        return new CaptureScnRules.Existing(name, first, dictionary, false, 0);
    }

    @Test
    @DisplayName("CAP-SCN-5: first SCN set, start SCN NULL: the start SCN is the first SCN, no build runs")
    void firstSetStartNull() {
        assertEquals(new CaptureScnRules.Creation.AtFirstScn(400, 400), CaptureScnRules.create("c", 400L, null, CURRENT, List.of()));
    }

    @Test
    @DisplayName("CAP-SCN-6: both set: a start SCN below the first SCN is refused; otherwise a new session from the first SCN")
    void bothSet() {
        CaptureScnException e = assertThrows(CaptureScnException.class,
                () -> CaptureScnRules.create("c", 400L, 399L, CURRENT, List.of()));
        assertTrue(e.getMessage().contains("start_scn 399 is below first_scn 400"), e.getMessage());
        assertEquals(new CaptureScnRules.Creation.AtFirstScn(400, 700), CaptureScnRules.create("c", 400L, 700L, CURRENT, List.of()));
    }

    @Test
    @DisplayName("CAP-SCN-7: first NULL, start set, no capture with a checkpoint: a build if start >= current SCN, else an error")
    void firstNullNothingToShare() {
        List<CaptureScnRules.Existing> none = List.of(neverStarted("old", 10, 1));
        CaptureScnRules.Creation c = CaptureScnRules.create("c", null, 1_200L, CURRENT, none);
        CaptureScnRules.Creation.NewBuild b = (CaptureScnRules.Creation.NewBuild) c;
        assertEquals(1_200, b.startScn(1_100), "a start SCN above the build's SCN stays");
        assertEquals(1_300, b.startScn(1_300), "a start SCN below the build's SCN is raised to it");
        CaptureScnException e = assertThrows(CaptureScnException.class, () -> CaptureScnRules.create("c", null, 900L, CURRENT, none));
        assertTrue(e.getMessage().contains("start_scn 900 is below the current SCN 1000"), e.getMessage());
    }

    @Test
    @DisplayName("CAP-SCN-7: first NULL, start set, captures with checkpoints: shares the dictionary of the one furthest "
            + "ahead whose first SCN is at or below the start SCN; refused below every first SCN")
    void firstNullShares() {
        List<CaptureScnRules.Existing> caps = List.of(started("a", 100, 1, 500), started("b", 300, 2, 900),
                started("c", 600, 3, 950), neverStarted("d", 50, 4));
        CaptureScnRules.Creation.Shared s = (CaptureScnRules.Creation.Shared) CaptureScnRules.create("n", null, 400L, CURRENT, caps);
        assertEquals("b", s.with().name(), "b (checkpoint 900) beats a (500); c starts above 400");
        assertEquals(300, s.firstScn());
        assertEquals(400, s.startScn());
        CaptureScnException below = assertThrows(CaptureScnException.class,
                () -> CaptureScnRules.create("n", null, 40L, CURRENT, caps));
        assertTrue(below.getMessage().contains("lower than the first SCN of every existing capture"), below.getMessage());
        CaptureScnException onlyUnstarted = assertThrows(CaptureScnException.class,
                () -> CaptureScnRules.create("n", null, 60L, CURRENT, caps));
        assertTrue(onlyUnstarted.getMessage().contains("no capture process with a first SCN at or below start_scn 60 has been started"),
                onlyUnstarted.getMessage());
    }

    @Test
    @DisplayName("CAP-SCN-9: both NULL: as first NULL with the start SCN at the current SCN")
    void bothNull() {
        assertEquals(CURRENT, CaptureScnRules.create("c", null, null, CURRENT, List.of()).startScn());
        CaptureScnRules.Creation.Shared s = (CaptureScnRules.Creation.Shared) CaptureScnRules.create("c", null, null, CURRENT,
                List.of(started("a", 100, 1, 500)));
        assertEquals(CURRENT, s.startScn());
    }

    @Test
    @DisplayName("CAP-SCN-8 CAP-DS-3: downstream with first NULL: through the database link the local rules hold with the "
            + "source's current SCN; without a link it is an error that says to run the build at the source")
    void downstream() {
        java.util.OptionalLong linked = java.util.OptionalLong.of(CURRENT);
        assertEquals(new CaptureScnRules.Creation.NewBuild(CURRENT),
                CaptureScnRules.createDownstream("c", "SRC", null, null, linked, List.of()));
        assertEquals(new CaptureScnRules.Creation.NewBuild(1_200),
                CaptureScnRules.createDownstream("c", "SRC", null, 1_200L, linked, List.of()));
        assertTrue(assertThrows(CaptureScnException.class,
                () -> CaptureScnRules.createDownstream("c", "SRC", null, 900L, linked, List.of())).getMessage()
                .contains("start_scn 900 is below the current SCN 1000"));
        CaptureScnRules.Creation.Shared s = (CaptureScnRules.Creation.Shared) CaptureScnRules.createDownstream("c", "SRC",
                null, 400L, linked, List.of(started("a", 100, 1, 500)));
        assertEquals("a", s.with().name());
        for (Long start : new Long[] {null, 1_200L}) {
            CaptureScnException e = assertThrows(CaptureScnException.class,
                    () -> CaptureScnRules.createDownstream("c", "SRC", null, start, java.util.OptionalLong.empty(), List.of()));
            assertTrue(e.getMessage().contains("without a database link needs a first_scn: run dbms_capture_adm.build at SRC"),
                    e.getMessage());
        }
        assertEquals(new CaptureScnRules.Creation.AtFirstScn(400, 450), CaptureScnRules.createDownstream("c", "SRC", 400L,
                450L, java.util.OptionalLong.empty(), List.of()), "a first SCN given needs no link");
        assertThrows(CaptureScnException.class,
                () -> CaptureScnRules.createDownstream("c", "SRC", 400L, 399L, java.util.OptionalLong.empty(), List.of()));
    }

    @Test
    @DisplayName("CAP-SCN-8: without a database link a downstream capture shares the LogMiner dictionary of a checkpointed "
            + "capture of the same source, regardless of use_database_link; it needs a start SCN, and one that was never "
            + "started (no checkpoint) gives nothing to share")
    void downstreamSharesWithoutALink() {
        java.util.OptionalLong noLink = java.util.OptionalLong.empty();
        CaptureScnRules.Creation.Shared s = (CaptureScnRules.Creation.Shared) CaptureScnRules.createDownstream("c", "SRC",
                null, 400L, noLink, List.of(started("a", 100, 1, 500), neverStarted("b", 50, 2)));
        assertEquals("a", s.with().name());
        assertEquals(400, s.startScn());
        assertTrue(assertThrows(CaptureScnException.class, () -> CaptureScnRules.createDownstream("c", "SRC", null, null,
                noLink, List.of(started("a", 100, 1, 500)))).getMessage().contains("needs a start_scn"));
        assertTrue(assertThrows(CaptureScnException.class, () -> CaptureScnRules.createDownstream("c", "SRC", null, 400L,
                noLink, List.of(neverStarted("b", 50, 2)))).getMessage().contains("run dbms_capture_adm.build at SRC"));
        assertTrue(assertThrows(CaptureScnException.class, () -> CaptureScnRules.createDownstream("c", "SRC", null, 90L,
                noLink, List.of(started("a", 100, 1, 500)))).getMessage().contains("lower than the first SCN of every"));
    }

    @Test
    @DisplayName("CAP-SCN-10 CAP-SCN-3: the first SCN is only raised, not past the checkpoint, and lifts a lower start "
            + "SCN (Figures 2-4, 2-5); a start SCN below the first SCN is refused")
    void alter() {
        CaptureScnRules.Scns now = new CaptureScnRules.Scns(100, 200);
        assertEquals(new CaptureScnRules.Scns(150, 200), CaptureScnRules.alter("c", now, 500, 150L, null), "Figure 2-4");
        assertEquals(new CaptureScnRules.Scns(300, 300), CaptureScnRules.alter("c", now, 500, 300L, null), "Figure 2-5");
        assertTrue(assertThrows(CaptureScnException.class, () -> CaptureScnRules.alter("c", now, 500, 99L, null))
                .getMessage().contains("can only be raised"));
        assertTrue(assertThrows(CaptureScnException.class, () -> CaptureScnRules.alter("c", now, 500, 502L, null))
                .getMessage().contains("above its required checkpoint SCN 500"));
        assertEquals(new CaptureScnRules.Scns(600, 600), CaptureScnRules.alter("c", now, 0, 600L, null),
                "no checkpoint yet: nothing bounds it");
        assertTrue(assertThrows(CaptureScnException.class, () -> CaptureScnRules.alter("c", now, 500, null, 99L))
                .getMessage().contains("below its first SCN 100"));
        assertEquals(new CaptureScnRules.Scns(150, 160), CaptureScnRules.alter("c", now, 500, 150L, 160L));
    }

    @Test
    @DisplayName("CAP-SCN-3: a new dictionary scans from its build; a shared one from the furthest checkpoint of its "
            + "sharers or just below the start SCN, the lower, and never below the first SCN")
    void initialCheckpoint() {
        CaptureScnRules.Scns s = new CaptureScnRules.Scns(100, 400);
        assertEquals(99, CaptureScnRules.initialCheckpoint(s, false, 100, 0));
        assertEquals(250, CaptureScnRules.initialCheckpoint(s, true, 100, 250));
        assertEquals(399, CaptureScnRules.initialCheckpoint(s, true, 100, 900));
        assertEquals(99, CaptureScnRules.initialCheckpoint(s, true, 100, 0));
    }

    @Test
    @DisplayName("CAP-SCN-2: redo is kept from the lowest checkpoint, or below the first SCN of a capture without one")
    void requiredScn() {
        assertEquals(Long.MAX_VALUE, CaptureScnRules.requiredScn(List.of()));
        assertEquals(499, CaptureScnRules.requiredScn(List.of(started("a", 100, 1, 800), neverStarted("b", 500, 2))));
        assertEquals(800, CaptureScnRules.requiredScn(List.of(started("a", 100, 1, 800), started("b", 500, 2, 900))));
    }

    @Test
    @DisplayName("CAP-SCN-10: a dictionary is purged below the lowest first SCN of the captures sharing it")
    void dictionaryPurge() {
        List<CaptureScnRules.Existing> caps = List.of(started("a", 300, 1, 800), started("b", 200, 1, 900), started("c", 50, 2, 90));
        assertEquals(Optional.of(200L), CaptureScnRules.dictionaryPurgeBelow(1, 100, caps));
        assertEquals(Optional.empty(), CaptureScnRules.dictionaryPurgeBelow(1, 200, caps), "nothing below the build");
        assertFalse(CaptureScnRules.dictionaryPurgeBelow(3, 10, caps).isPresent(), "no capture uses it");
    }

    @Test
    @DisplayName("CAP-RAC-2: a capture's status moves only as its table allows; only ENABLED runs on a new owner")
    void statusTransitions() {
        assertEquals(ProcessStatus.ENABLED, ProcessStatus.DISABLED.to(ProcessStatus.ENABLED));
        assertEquals(ProcessStatus.ABORTED, ProcessStatus.ENABLED.to(ProcessStatus.ABORTED));
        assertEquals(ProcessStatus.DISABLED, ProcessStatus.ABORTED.to(ProcessStatus.DISABLED));
        assertThrows(IllegalStateException.class, () -> ProcessStatus.DISABLED.to(ProcessStatus.ABORTED), "a disabled capture does not run");
        assertThrows(IllegalStateException.class, () -> ProcessStatus.ABORTED.to(ProcessStatus.ABORTED));
        assertTrue(ProcessStatus.ENABLED.runs());
        assertFalse(ProcessStatus.DISABLED.runs());
        assertFalse(ProcessStatus.ABORTED.runs());
    }
}
