package com.example.bookmarks.repository;

import com.example.bookmarks.model.Bookmark;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Thread-safe in-memory store of bookmarks, keyed and ordered by id.
 */
public class BookmarkRepository {

    private final TreeMap<Long, Bookmark> store = new TreeMap<>();
    private long nextId = 1;

    public synchronized long nextId() {
        return nextId++;
    }

    public synchronized Bookmark save(Bookmark bookmark) {
        store.put(bookmark.getId(), bookmark.copy());
        return bookmark.copy();
    }

    public synchronized Optional<Bookmark> findById(long id) {
        Bookmark b = store.get(id);
        return b == null ? Optional.empty() : Optional.of(b.copy());
    }

    public synchronized List<Bookmark> findAll() {
        List<Bookmark> result = new ArrayList<>(store.size());
        for (Bookmark b : store.values()) {
            result.add(b.copy());
        }
        return result;
    }

    public synchronized boolean existsById(long id) {
        return store.containsKey(id);
    }

    public synchronized boolean deleteById(long id) {
        return store.remove(id) != null;
    }
}
