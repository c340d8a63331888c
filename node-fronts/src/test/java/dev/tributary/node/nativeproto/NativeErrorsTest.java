package dev.tributary.node.nativeproto;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tributary.node.errors.ErrorCode;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The native front's error codes for the project's reason codes. */
class NativeErrorsTest {
    @Test
    @DisplayName("every reason code has its CQL error code: syntax, invalid, already exists, unavailable, server error")
    void errorCodes() {
        assertEquals(0x2000, NativeErrors.codeOf(ErrorCode.SYNTAX_ERROR));
        assertEquals(0x2200, NativeErrors.codeOf(ErrorCode.NOT_FOUND));
        assertEquals(0x2200, NativeErrors.codeOf(ErrorCode.INVALID_REQUEST));
        assertEquals(0x2400, NativeErrors.codeOf(ErrorCode.ALREADY_EXISTS));
        assertEquals(0x1000, NativeErrors.codeOf(ErrorCode.UNAVAILABLE));
        assertEquals(0x0000, NativeErrors.codeOf(ErrorCode.INTERNAL));
        assertEquals(0x1001, NativeErrors.overloaded(3).code);
        for (ErrorCode c : ErrorCode.values()) {
            NativeErrors.codeOf(c); // total: a new reason code must be given its CQL code
        }
    }
}
