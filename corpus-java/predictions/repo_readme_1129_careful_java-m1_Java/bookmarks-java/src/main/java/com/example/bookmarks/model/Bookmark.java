package com.example.bookmarks.model;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import com.fasterxml.jackson.databind.ser.std.ToStringSerializer;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * A stored bookmark. Immutable; updates produce a new instance that keeps {@code id} and
 * {@code createdAt}.
 */
@JsonPropertyOrder({"id", "url", "title", "tags", "createdAt"})
public record Bookmark(
        long id,
        String url,
        String title,
        List<String> tags,
        @JsonSerialize(using = ToStringSerializer.class) Instant createdAt) {

    public Bookmark {
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(createdAt, "createdAt");
        tags = tags == null ? List.of() : List.copyOf(tags);
    }

    /** Returns a copy with the editable fields replaced by those of {@code draft}. */
    public Bookmark withContent(BookmarkDraft draft) {
        return new Bookmark(id, draft.url(), draft.title(), draft.tags(), createdAt);
    }

    public boolean hasTag(String normalizedTag) {
        return tags.contains(normalizedTag);
    }
}
