package com.example.bookmarks;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

class BookmarksServerTest {

    @Test
    void bookmarkToJson() {
        BookmarksServer.Bookmark b = new BookmarksServer.Bookmark();
        b.id = 1;
        b.url = "https://example.com";
        b.title = "Example";
        b.tags = java.util.List.of("a", "b");
        b.createdAt = "2024-01-01T00:00:00Z";
        var n = b.toJson();
        assertEquals(1, n.get("id").asInt());
        assertEquals("https://example.com", n.get("url").asText());
        assertEquals(2, n.get("tags").size());
        assertNotNull(n.get("createdAt"));
    }
}
