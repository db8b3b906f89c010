package app;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Parses and validates the JSON body of a create (POST /bookmarks) or update
 * (PUT /bookmarks/{id}) request.
 *
 * Rules (from the README):
 * - body must be valid JSON and a JSON object;
 * - "url": required string, must start with "http://" or "https://";
 * - "title": required string, 1 to 200 characters;
 * - "tags": optional array of strings (default empty); stored lower-cased,
 *   without duplicates, in the order first given.
 *
 * Every violation raises an {@link ApiException} with status 400.
 */
public final class BookmarkValidator {

    public static final int MAX_TITLE_LENGTH = 200;

    private static final ObjectMapper MAPPER = new ObjectMapper();

    public BookmarkValidator() {
    }

    /** The validated, normalised content of a create/update request. */
    public record Input(String url, String title, List<String> tags) {
        public Input {
            tags = tags == null ? List.of() : List.copyOf(tags);
        }

        public String getUrl() {
            return url;
        }

        public String getTitle() {
            return title;
        }

        public List<String> getTags() {
            return tags;
        }
    }

    // ---- entry points -----------------------------------------------------

    /** Parses and validates a raw request body. */
    public static Input validate(String body) {
        return validate(parseJson(body));
    }

    /** Parses and validates a raw request body given as bytes (UTF-8). */
    public static Input validate(byte[] body) {
        return validate(body == null ? null : new String(body, StandardCharsets.UTF_8));
    }

    /** Reads, parses and validates a request body stream (UTF-8). */
    public static Input validate(InputStream body) {
        if (body == null) {
            throw badRequest("request body must be a JSON object");
        }
        try {
            return validate(body.readAllBytes());
        } catch (IOException e) {
            throw badRequest("could not read request body");
        }
    }

    /** Aliases, for callers that prefer the word "parse". */
    public static Input parse(String body) {
        return validate(body);
    }

    public static Input parse(byte[] body) {
        return validate(body);
    }

    public static Input parse(InputStream body) {
        return validate(body);
    }

    public static Input parse(JsonNode node) {
        return validate(node);
    }

    /** Validates an already parsed JSON tree. */
    public static Input validate(JsonNode node) {
        if (node == null || node.isMissingNode() || !node.isObject()) {
            throw badRequest("request body must be a JSON object");
        }
        String url = requireString(node, "url");
        String title = requireString(node, "title");
        List<String> tags = readTags(node.get("tags"));

        if (!(url.startsWith("http://") || url.startsWith("https://"))) {
            throw badRequest("url must start with http:// or https://");
        }
        int titleLength = title.codePointCount(0, title.length());
        if (titleLength < 1) {
            throw badRequest("title must not be empty");
        }
        if (titleLength > MAX_TITLE_LENGTH) {
            throw badRequest("title must be at most " + MAX_TITLE_LENGTH + " characters");
        }
        return new Input(url, title, tags);
    }

    /**
     * Lower-cases tags and removes duplicates, keeping the order in which
     * each tag was first given.
     */
    public static List<String> normalizeTags(List<String> tags) {
        if (tags == null || tags.isEmpty()) {
            return Collections.emptyList();
        }
        Set<String> seen = new LinkedHashSet<>();
        for (String tag : tags) {
            if (tag != null) {
                seen.add(tag.toLowerCase(Locale.ROOT));
            }
        }
        return new ArrayList<>(seen);
    }

    // ---- helpers ----------------------------------------------------------

    private static JsonNode parseJson(String body) {
        if (body == null || body.isBlank()) {
            throw badRequest("request body must be a JSON object");
        }
        try {
            JsonNode node = MAPPER.readTree(body);
            if (node == null) {
                throw badRequest("request body must be a JSON object");
            }
            return node;
        } catch (JsonProcessingException e) {
            throw badRequest("invalid JSON body");
        }
    }

    private static String requireString(JsonNode obj, String field) {
        JsonNode value = obj.get(field);
        if (value == null || value.isNull()) {
            throw badRequest("missing required field: " + field);
        }
        if (!value.isTextual()) {
            throw badRequest("field '" + field + "' must be a string");
        }
        return value.textValue();
    }

    private static List<String> readTags(JsonNode value) {
        if (value == null || value.isNull()) {
            return Collections.emptyList();
        }
        if (!value.isArray()) {
            throw badRequest("field 'tags' must be an array of strings");
        }
        List<String> raw = new ArrayList<>();
        Iterator<JsonNode> it = value.elements();
        while (it.hasNext()) {
            JsonNode element = it.next();
            if (element == null || !element.isTextual()) {
                throw badRequest("field 'tags' must be an array of strings");
            }
            raw.add(element.textValue());
        }
        return normalizeTags(raw);
    }

    private static ApiException badRequest(String message) {
        return new ApiException(400, message);
    }
}
