package dev.tributary.node;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The modules depend only downward because Maven builds them in that order; inside a module
 * nothing stops a package from reaching back up, which is how node-server's packages once tangled.
 * The node's class path holds the main code of every module but the bench, deploy and connector.
 */
@Timeout(120)
class ArchitectureTest {
    private static final JavaClasses MAIN_CODE = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.tributary");

    @Test
    @DisplayName("no package of Tributary's main code reaches itself again through others (no package cycle)")
    void packagesAreFreeOfCycles() {
        slices().matching("dev.tributary.(**)").should().beFreeOfCycles().check(MAIN_CODE);
    }
}
