package com.example.bookmarks.validation;

import com.example.bookmarks.error.BadRequestException;
import com.example.bookmarks.model.BookmarkDraft;
import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Turns a raw JSON request body into a {@link BookmarkDraft}, enforcing the schema:
 * <ul>
 *   <li>{@code url}: required string starting with {@code http://} or {@code https://}</li>
 *   <li>{@code title}: required string of 1 to 200 characters</li>
 *   <li>{@code tags}: optional array of strings; lower-cased and de-duplicated, first order kept</li>
 * </ul>
 */
public final class BookmarkValidator {

    public static final int MAX_TITLE_LENGTH = 200;

    public BookmarkDraft validate(JsonNode body) {
        if (body == null || !body.isObject()) {
            throw new BadRequestException("request body must be a JSON object");
        }
        String url = requiredString(body, "url");
        if (!(url.startsWith("http://") || url.startsWith("https://"))) {
            throw new BadRequestException("url must start with http:// or https://");
        }
        String title = requiredString(body, "title");
        int length = title.codePointCount(0, title.length());
        if (title.isBlank() || length > MAX_TITLE_LENGTH) {
            throw new BadRequestException(
                    "title must be between 1 and " + MAX_TITLE_LENGTH + " characters");
        }
        return new BookmarkDraft(url, title, tags(body.get("tags")));
    }

    private static String requiredString(JsonNode body, String field) {
        JsonNode value = body.get(field);
        if (value == null || value.isNull()) {
            throw new BadRequestException(field + " is required");
        }
        if (!value.isTextual()) {
            throw new BadRequestException(field + " must be a string");
        }
        return value.textValue();
    }

    private static List<String> tags(JsonNode value) {
        if (value == null || value.isNull()) {
            return List.of();
        }
        if (!value.isArray()) {
            throw new BadRequestException("tags must be an array of strings");
        }
        Set<String> unique = new LinkedHashSet<>();
        for (JsonNode element : value) {
            if (element == null || !element.isTextual()) {
                throw new BadRequestException("tags must be an array of strings");
            }
            unique.add(normalizeTag(element.textValue()));
        }
        return new ArrayList<>(unique);
    }

    /** Canonical form of a tag, used both for storage and for filtering. */
    public static String normalizeTag(String tag) {
        return tag.toLowerCase(Locale.ROOT);
    }
}
