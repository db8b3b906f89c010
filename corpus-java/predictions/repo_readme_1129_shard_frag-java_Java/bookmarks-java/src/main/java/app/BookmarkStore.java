package app;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Thread-safe in-memory bookmark store.
 *
 * Ids are assigned from 1 in creation order and never reused. All public
 * methods are synchronized on the store. Bookmarks are handed out as
 * {@link Bookmark} values built with
 * {@code new Bookmark(int id, String url, String title, List<String> tags, String createdAt)}.
 */
public class BookmarkStore {

    /** Internal record of one stored bookmark. */
    private static final class Entry {
        final int id;
        final String createdAt;
        String url;
        String title;
        List<String> tags;

        Entry(int id, String createdAt, String url, String title, List<String> tags) {
            this.id = id;
            this.createdAt = createdAt;
            this.url = url;
            this.title = title;
            this.tags = tags;
        }

        Bookmark toBookmark() {
            return new Bookmark(id, url, title, new ArrayList<>(tags), createdAt);
        }
    }

    // TreeMap keeps entries ordered by id ascending.
    private final TreeMap<Integer, Entry> entries = new TreeMap<>();
    private int nextId = 1;

    /** Lower-cases tags and removes duplicates, keeping first-given order. */
    private static List<String> normalizeTags(List<String> tags) {
        LinkedHashSet<String> set = new LinkedHashSet<>();
        if (tags != null) {
            for (String t : tags) {
                if (t != null) {
                    set.add(t.toLowerCase(Locale.ROOT));
                }
            }
        }
        return new ArrayList<>(set);
    }

    /** Creates and stores a new bookmark; returns it with its id and createdAt. */
    public synchronized Bookmark create(String url, String title, List<String> tags) {
        int id = nextId++;
        Entry e = new Entry(id, Instant.now().toString(), url, title, normalizeTags(tags));
        entries.put(id, e);
        return e.toBookmark();
    }

    /** Returns the bookmark with that id, or null if none. */
    public synchronized Bookmark get(int id) {
        Entry e = entries.get(id);
        return e == null ? null : e.toBookmark();
    }

    public Bookmark get(long id) {
        return inIntRange(id) ? get((int) id) : null;
    }

    /** Returns the bookmark with that id, if any. */
    public Optional<Bookmark> find(int id) {
        return Optional.ofNullable(get(id));
    }

    public Optional<Bookmark> find(long id) {
        return Optional.ofNullable(get(id));
    }

    /** All bookmarks ordered by id ascending. */
    public synchronized List<Bookmark> list() {
        return list(null);
    }

    /**
     * Bookmarks ordered by id ascending; when tag is non-null (and non-empty),
     * only those carrying that tag (case-insensitive).
     */
    public synchronized List<Bookmark> list(String tag) {
        String wanted = (tag == null || tag.isEmpty()) ? null : tag.toLowerCase(Locale.ROOT);
        List<Bookmark> out = new ArrayList<>();
        for (Entry e : entries.values()) {
            if (wanted == null || e.tags.contains(wanted)) {
                out.add(e.toBookmark());
            }
        }
        return out;
    }

    /**
     * Replaces url, title and tags of an existing bookmark, keeping its id and
     * createdAt. Returns the updated bookmark, or null if no bookmark has that id.
     */
    public synchronized Bookmark replace(int id, String url, String title, List<String> tags) {
        Entry e = entries.get(id);
        if (e == null) {
            return null;
        }
        e.url = url;
        e.title = title;
        e.tags = normalizeTags(tags);
        return e.toBookmark();
    }

    public Bookmark replace(long id, String url, String title, List<String> tags) {
        return inIntRange(id) ? replace((int) id, url, title, tags) : null;
    }

    /** Alias of {@link #replace(int, String, String, List)}. */
    public Bookmark update(int id, String url, String title, List<String> tags) {
        return replace(id, url, title, tags);
    }

    public Bookmark update(long id, String url, String title, List<String> tags) {
        return replace(id, url, title, tags);
    }

    /** Deletes the bookmark; returns true if it existed. */
    public synchronized boolean delete(int id) {
        return entries.remove(id) != null;
    }

    public boolean delete(long id) {
        return inIntRange(id) && delete((int) id);
    }

    /**
     * One entry per tag in use, sorted by tag name ascending, each a map
     * {"tag": String, "count": Integer} ready for JSON serialization.
     */
    public synchronized List<Map<String, Object>> tagCounts() {
        TreeMap<String, Integer> counts = new TreeMap<>();
        for (Entry e : entries.values()) {
            for (String t : e.tags) {
                counts.merge(t, 1, Integer::sum);
            }
        }
        List<Map<String, Object>> out = new ArrayList<>();
        for (Map.Entry<String, Integer> c : counts.entrySet()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("tag", c.getKey());
            m.put("count", c.getValue());
            out.add(m);
        }
        return out;
    }

    /** Number of stored bookmarks. */
    public synchronized int size() {
        return entries.size();
    }

    /** Removes all bookmarks (ids keep counting up). */
    public synchronized void clear() {
        entries.clear();
    }

    private static boolean inIntRange(long id) {
        return id >= Integer.MIN_VALUE && id <= Integer.MAX_VALUE;
    }
}
