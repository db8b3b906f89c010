package com.example.bookmarks;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

public class BookmarkStore {
    private Map<Integer, Bookmark> bookmarks = new TreeMap<>();
    private int nextId = 1;

    public synchronized Bookmark create(String url, String title, List<String> tags) {
        Bookmark b = new Bookmark(nextId, url, title, tags, Instant.now().toString());
        bookmarks.put(nextId, b);
        nextId++;
        return b;
    }

    public synchronized Bookmark get(int id) {
        return bookmarks.get(id);
    }

    public synchronized List<Bookmark> list(String tag) {
        List<Bookmark> result = new ArrayList<>();
        for (Bookmark b : bookmarks.values()) {
            if (tag == null || b.tags.contains(tag.toLowerCase())) {
                result.add(b);
            }
        }
        return result;
    }

    public synchronized Bookmark update(int id, String url, String title, List<String> tags) {
        Bookmark b = bookmarks.get(id);
        if (b == null) return null;
        b.url = url;
        b.title = title;
        b.tags = tags;
        return b;
    }

    public synchronized boolean delete(int id) {
        return bookmarks.remove(id) != null;
    }

    public synchronized Map<String, Integer> tagCounts() {
        Map<String, Integer> counts = new TreeMap<>();
        for (Bookmark b : bookmarks.values()) {
            for (String t : b.tags) {
                counts.put(t, counts.getOrDefault(t, 0) + 1);
            }
        }
        return counts;
    }
}
