package com.example.bookmarks;

import com.example.bookmarks.error.BadRequestException;
import com.example.bookmarks.json.JsonCodec;
import com.example.bookmarks.model.BookmarkDraft;
import com.example.bookmarks.validation.BookmarkValidator;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class BookmarkValidatorTest {

    private final JsonCodec json = new JsonCodec();
    private final BookmarkValidator validator = new BookmarkValidator();

    private BookmarkDraft validate(String body) {
        return validator.validate(json.parse(body.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void normalisesTags() {
        BookmarkDraft d = validate("{\"url\":\"https://x.io\",\"title\":\"X\",\"tags\":[\"B\",\"a\",\"b\"]}");
        assertEquals(List.of("b", "a"), d.tags());
    }

    @Test
    void tagsDefaultToEmpty() {
        assertEquals(List.of(), validate("{\"url\":\"http://x.io\",\"title\":\"X\"}").tags());
    }

    @Test
    void titleBoundaries() {
        validate("{\"url\":\"http://x.io\",\"title\":\"" + "t".repeat(200) + "\"}");
        assertThrows(BadRequestException.class,
                () -> validate("{\"url\":\"http://x.io\",\"title\":\"" + "t".repeat(201) + "\"}"));
        assertThrows(BadRequestException.class, () -> validate("{\"url\":\"http://x.io\",\"title\":\"\"}"));
    }

    @Test
    void rejectsBadInput() {
        for (String body : List.of("", "{", "[]", "{\"title\":\"X\"}", "{\"url\":1,\"title\":\"X\"}",
                "{\"url\":\"ftp://x\",\"title\":\"X\"}", "{\"url\":\"http://x\"}",
                "{\"url\":\"http://x\",\"title\":\"X\",\"tags\":\"a\"}",
                "{\"url\":\"http://x\",\"title\":\"X\",\"tags\":[1]}")) {
            assertThrows(BadRequestException.class, () -> validate(body), body);
        }
    }
}
