package app;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * A stored bookmark. Serialized by Jackson exactly as the README's bookmark output:
 * {"id": int, "url": string, "title": string, "tags": [string], "createdAt": ISO-8601 string}.
 */
@JsonPropertyOrder({"id", "url", "title", "tags", "createdAt"})
public class Bookmark {

    private int id;
    private String url;
    private String title;
    private List<String> tags = new ArrayList<>();
    private String createdAt;

    /** No-arg constructor (for Jackson and for field-by-field construction). */
    public Bookmark() {
    }

    /** Unsaved bookmark data (as produced by validation); id and createdAt are assigned by the store. */
    public Bookmark(String url, String title, List<String> tags) {
        this(0, url, title, tags, (String) null);
    }

    public Bookmark(int id, String url, String title, List<String> tags, String createdAt) {
        this.id = id;
        this.url = url;
        this.title = title;
        setTags(tags);
        this.createdAt = createdAt;
    }

    public Bookmark(int id, String url, String title, List<String> tags, Instant createdAt) {
        this(id, url, title, tags, createdAt == null ? null : createdAt.toString());
    }

    public Bookmark(long id, String url, String title, List<String> tags, String createdAt) {
        this(Math.toIntExact(id), url, title, tags, createdAt);
    }

    public Bookmark(long id, String url, String title, List<String> tags, Instant createdAt) {
        this(Math.toIntExact(id), url, title, tags, createdAt);
    }

    /** Creates a bookmark stamped with the current time. */
    public Bookmark(int id, String url, String title, List<String> tags) {
        this(id, url, title, tags, Instant.now());
    }

    public static Bookmark create(int id, String url, String title, List<String> tags) {
        return new Bookmark(id, url, title, tags, Instant.now());
    }

    // ---- JSON-visible getters ----

    @JsonProperty("id")
    public int getId() {
        return id;
    }

    @JsonProperty("url")
    public String getUrl() {
        return url;
    }

    @JsonProperty("title")
    public String getTitle() {
        return title;
    }

    @JsonProperty("tags")
    public List<String> getTags() {
        return tags;
    }

    @JsonProperty("createdAt")
    public String getCreatedAt() {
        return createdAt;
    }

    // ---- record-style accessors (not serialized: Jackson only uses getX) ----

    public int id() {
        return id;
    }

    public String url() {
        return url;
    }

    public String title() {
        return title;
    }

    public List<String> tags() {
        return tags;
    }

    public String createdAt() {
        return createdAt;
    }

    // ---- setters ----

    public void setId(int id) {
        this.id = id;
    }

    public void setId(long id) {
        this.id = Math.toIntExact(id);
    }

    public void setUrl(String url) {
        this.url = url;
    }

    public void setTitle(String title) {
        this.title = title;
    }

    public void setTags(List<String> tags) {
        this.tags = tags == null ? new ArrayList<>() : new ArrayList<>(tags);
    }

    public void setCreatedAt(String createdAt) {
        this.createdAt = createdAt;
    }

    public void setCreatedAt(Instant createdAt) {
        this.createdAt = createdAt == null ? null : createdAt.toString();
    }

    // ---- helpers ----

    /** True when this bookmark carries the given tag (case-insensitive). */
    public boolean hasTag(String tag) {
        if (tag == null) {
            return false;
        }
        String wanted = tag.toLowerCase(Locale.ROOT);
        for (String t : tags) {
            if (t != null && t.toLowerCase(Locale.ROOT).equals(wanted)) {
                return true;
            }
        }
        return false;
    }

    /** A copy with a different id and createdAt (e.g. assigning store fields to validated input). */
    public Bookmark withId(int newId, String newCreatedAt) {
        return new Bookmark(newId, url, title, tags, newCreatedAt);
    }

    /** Replacement for PUT: takes url/title/tags from {@code input}, keeps this id and createdAt. */
    public Bookmark replacedBy(Bookmark input) {
        return new Bookmark(id, input.getUrl(), input.getTitle(), input.getTags(), createdAt);
    }

    /** Independent copy. */
    public Bookmark copy() {
        return new Bookmark(id, url, title, tags, createdAt);
    }

    /** The JSON shape as an ordered map. */
    @JsonIgnore
    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", id);
        m.put("url", url);
        m.put("title", title);
        m.put("tags", new ArrayList<>(tags));
        m.put("createdAt", createdAt);
        return m;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof Bookmark)) {
            return false;
        }
        Bookmark b = (Bookmark) o;
        return id == b.id
                && Objects.equals(url, b.url)
                && Objects.equals(title, b.title)
                && Objects.equals(tags, b.tags)
                && Objects.equals(createdAt, b.createdAt);
    }

    @Override
    public int hashCode() {
        return Objects.hash(id, url, title, tags, createdAt);
    }

    @Override
    public String toString() {
        return "Bookmark{id=" + id + ", url='" + url + "', title='" + title
                + "', tags=" + tags + ", createdAt='" + createdAt + "'}";
    }
}
