package com.example.bookmarks.service;

import com.example.bookmarks.error.NotFoundException;
import com.example.bookmarks.model.Bookmark;
import com.example.bookmarks.model.BookmarkDraft;
import com.example.bookmarks.model.TagCount;
import com.example.bookmarks.store.BookmarkStore;
import com.example.bookmarks.validation.BookmarkValidator;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/** Business operations on bookmarks, independent of HTTP. */
public final class BookmarkService {

    private final BookmarkStore store;
    private final Clock clock;

    public BookmarkService(BookmarkStore store, Clock clock) {
        this.store = Objects.requireNonNull(store, "store");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    public Bookmark create(BookmarkDraft draft) {
        Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
        return store.create(draft, now);
    }

    /** Lists bookmarks by id; if {@code tag} is non-null, only those carrying it (case-insensitive). */
    public List<Bookmark> list(String tag) {
        List<Bookmark> all = store.findAll();
        if (tag == null) {
            return all;
        }
        String wanted = BookmarkValidator.normalizeTag(tag);
        List<Bookmark> matching = new ArrayList<>();
        for (Bookmark bookmark : all) {
            if (bookmark.hasTag(wanted)) {
                matching.add(bookmark);
            }
        }
        return matching;
    }

    public Bookmark get(long id) {
        return store.findById(id).orElseThrow(BookmarkService::notFound);
    }

    public void requireExists(long id) {
        get(id);
    }

    public Bookmark update(long id, BookmarkDraft draft) {
        return store.replace(id, draft).orElseThrow(BookmarkService::notFound);
    }

    public void delete(long id) {
        if (!store.delete(id)) {
            throw notFound();
        }
    }

    /** One entry per tag in use, sorted by tag name ascending. */
    public List<TagCount> tagCounts() {
        Map<String, Long> counts = new TreeMap<>();
        for (Bookmark bookmark : store.findAll()) {
            for (String tag : bookmark.tags()) {
                counts.merge(tag, 1L, Long::sum);
            }
        }
        List<TagCount> result = new ArrayList<>(counts.size());
        counts.forEach((tag, count) -> result.add(new TagCount(tag, count)));
        return result;
    }

    private static NotFoundException notFound() {
        return new NotFoundException("bookmark not found");
    }
}
