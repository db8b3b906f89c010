package com.example.bookmarks.service;

import com.example.bookmarks.model.Bookmark;
import com.example.bookmarks.model.TagCount;
import com.example.bookmarks.repository.BookmarkRepository;
import com.fasterxml.jackson.databind.JsonNode;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

public class BookmarkService {

    private static final int MAX_TITLE_LENGTH = 200;

    private final BookmarkRepository repository;

    public BookmarkService(BookmarkRepository repository) {
        this.repository = repository;
    }

    public Bookmark create(JsonNode body) {
        BookmarkInput input = validate(body);
        synchronized (repository) {
            long id = repository.nextId();
            Bookmark bookmark = new Bookmark(id, input.url, input.title, input.tags, Instant.now().toString());
            return repository.save(bookmark);
        }
    }

    public List<Bookmark> list(String tag) {
        List<Bookmark> all = repository.findAll();
        if (tag == null) {
            return all;
        }
        String wanted = tag.toLowerCase(Locale.ROOT);
        List<Bookmark> filtered = new ArrayList<>();
        for (Bookmark b : all) {
            if (b.getTags().contains(wanted)) {
                filtered.add(b);
            }
        }
        return filtered;
    }

    public Bookmark get(long id) {
        return repository.findById(id).orElseThrow(() -> ApiException.notFound("bookmark not found"));
    }

    public Bookmark update(long id, JsonNode body) {
        synchronized (repository) {
            Bookmark existing = get(id);
            BookmarkInput input = validate(body);
            existing.setUrl(input.url);
            existing.setTitle(input.title);
            existing.setTags(input.tags);
            return repository.save(existing);
        }
    }

    public void delete(long id) {
        if (!repository.deleteById(id)) {
            throw ApiException.notFound("bookmark not found");
        }
    }

    public List<TagCount> tagCounts() {
        Map<String, Long> counts = new TreeMap<>();
        for (Bookmark b : repository.findAll()) {
            for (String t : b.getTags()) {
                counts.merge(t, 1L, Long::sum);
            }
        }
        List<TagCount> result = new ArrayList<>(counts.size());
        for (Map.Entry<String, Long> e : counts.entrySet()) {
            result.add(new TagCount(e.getKey(), e.getValue()));
        }
        return result;
    }

    private BookmarkInput validate(JsonNode body) {
        if (body == null || !body.isObject()) {
            throw ApiException.badRequest("request body must be a JSON object");
        }

        JsonNode urlNode = body.get("url");
        if (urlNode == null || urlNode.isNull()) {
            throw ApiException.badRequest("url is required");
        }
        if (!urlNode.isTextual()) {
            throw ApiException.badRequest("url must be a string");
        }
        String url = urlNode.asText();
        if (!(url.startsWith("http://") || url.startsWith("https://"))) {
            throw ApiException.badRequest("url must start with http:// or https://");
        }

        JsonNode titleNode = body.get("title");
        if (titleNode == null || titleNode.isNull()) {
            throw ApiException.badRequest("title is required");
        }
        if (!titleNode.isTextual()) {
            throw ApiException.badRequest("title must be a string");
        }
        String title = titleNode.asText();
        if (title.isEmpty() || title.length() > MAX_TITLE_LENGTH) {
            throw ApiException.badRequest("title must be 1 to 200 characters");
        }

        List<String> tags = new ArrayList<>();
        JsonNode tagsNode = body.get("tags");
        if (tagsNode != null && !tagsNode.isNull()) {
            if (!tagsNode.isArray()) {
                throw ApiException.badRequest("tags must be an array of strings");
            }
            Set<String> unique = new LinkedHashSet<>();
            for (JsonNode t : tagsNode) {
                if (!t.isTextual()) {
                    throw ApiException.badRequest("tags must be an array of strings");
                }
                unique.add(t.asText().toLowerCase(Locale.ROOT));
            }
            tags.addAll(unique);
        }
        return new BookmarkInput(url, title, tags);
    }

    private static final class BookmarkInput {
        final String url;
        final String title;
        final List<String> tags;

        BookmarkInput(String url, String title, List<String> tags) {
            this.url = url;
            this.title = title;
            this.tags = tags;
        }
    }
}
