package com.example.bookmarks;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

public class BookmarkStore {

    private final Map<Integer, Bookmark> bookmarks = new ConcurrentHashMap<>();
    private final AtomicInteger nextId = new AtomicInteger(1);

    public Bookmark create(String url, String title, List<String> tags) {
        int id = nextId.getAndIncrement();
        Bookmark b = new Bookmark(id, url, title, tags, Instant.now().toString());
        bookmarks.put(id, b);
        return b;
    }

    public List<Bookmark> list(String tag) {
        List<Bookmark> result = new ArrayList<>();
        for (Bookmark b : bookmarks.values()) {
            if (tag == null || b.getTags().contains(tag.toLowerCase())) {
                result.add(b);
            }
        }
        result.sort((a, b) -> a.getId() - b.getId());
        return result;
    }

    public Bookmark get(int id) {
        return bookmarks.get(id);
    }

    public Bookmark update(int id, String url, String title, List<String> tags) {
        Bookmark existing = bookmarks.get(id);
        if (existing == null) {
            return null;
        }
        existing.setUrl(url);
        existing.setTitle(title);
        existing.setTags(tags);
        return existing;
    }

    public boolean delete(int id) {
        return bookmarks.remove(id) != null;
    }

    public Map<String, Integer> tagCounts() {
        Map<String, Integer> counts = new TreeMap<>();
        for (Bookmark b : bookmarks.values()) {
            for (String t : b.getTags()) {
                counts.put(t, counts.getOrDefault(t, 0) + 1);
            }
        }
        return counts;
    }
}
