package com.example.bookmarks.store;

import com.example.bookmarks.model.Bookmark;
import com.example.bookmarks.model.BookmarkDraft;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** Persistence abstraction for bookmarks. Implementations must be thread-safe. */
public interface BookmarkStore {

    /** Stores a new bookmark under the next id (ids start at 1 and are never reused). */
    Bookmark create(BookmarkDraft draft, Instant createdAt);

    Optional<Bookmark> findById(long id);

    /** All bookmarks ordered by id ascending. */
    List<Bookmark> findAll();

    /** Replaces the content of an existing bookmark, keeping id and createdAt. */
    Optional<Bookmark> replace(long id, BookmarkDraft draft);

    /** @return true if a bookmark was removed */
    boolean delete(long id);
}
