package com.example.bookmarks.store;

import com.example.bookmarks.model.Bookmark;
import com.example.bookmarks.model.BookmarkDraft;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/** Thread-safe in-memory store backed by a sorted map guarded by a read/write lock. */
public final class InMemoryBookmarkStore implements BookmarkStore {

    private final TreeMap<Long, Bookmark> bookmarks = new TreeMap<>();
    private final ReadWriteLock lock = new ReentrantReadWriteLock();
    private long nextId = 1;

    @Override
    public Bookmark create(BookmarkDraft draft, Instant createdAt) {
        lock.writeLock().lock();
        try {
            long id = nextId++;
            Bookmark bookmark = new Bookmark(id, draft.url(), draft.title(), draft.tags(), createdAt);
            bookmarks.put(id, bookmark);
            return bookmark;
        } finally {
            lock.writeLock().unlock();
        }
    }

    @Override
    public Optional<Bookmark> findById(long id) {
        lock.readLock().lock();
        try {
            return Optional.ofNullable(bookmarks.get(id));
        } finally {
            lock.readLock().unlock();
        }
    }

    @Override
    public List<Bookmark> findAll() {
        lock.readLock().lock();
        try {
            return new ArrayList<>(bookmarks.values());
        } finally {
            lock.readLock().unlock();
        }
    }

    @Override
    public Optional<Bookmark> replace(long id, BookmarkDraft draft) {
        lock.writeLock().lock();
        try {
            Bookmark existing = bookmarks.get(id);
            if (existing == null) {
                return Optional.empty();
            }
            Bookmark updated = existing.withContent(draft);
            bookmarks.put(id, updated);
            return Optional.of(updated);
        } finally {
            lock.writeLock().unlock();
        }
    }

    @Override
    public boolean delete(long id) {
        lock.writeLock().lock();
        try {
            return bookmarks.remove(id) != null;
        } finally {
            lock.writeLock().unlock();
        }
    }
}
