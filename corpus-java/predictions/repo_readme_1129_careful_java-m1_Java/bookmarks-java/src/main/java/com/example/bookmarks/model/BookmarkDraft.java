package com.example.bookmarks.model;

import java.util.List;
import java.util.Objects;

/** Validated, normalised client input for creating or replacing a bookmark. */
public record BookmarkDraft(String url, String title, List<String> tags) {

    public BookmarkDraft {
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(title, "title");
        tags = tags == null ? List.of() : List.copyOf(tags);
    }
}
