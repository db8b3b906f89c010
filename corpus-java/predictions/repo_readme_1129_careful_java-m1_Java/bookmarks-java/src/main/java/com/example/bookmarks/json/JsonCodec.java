package com.example.bookmarks.json;

import com.example.bookmarks.error.BadRequestException;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import java.io.IOException;
import java.io.UncheckedIOException;

/** Thin wrapper around a shared, thread-safe Jackson {@link ObjectMapper}. */
public final class JsonCodec {

    private final ObjectMapper mapper;

    public JsonCodec() {
        this.mapper = new ObjectMapper()
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS);
    }

    /**
     * Parses a request body into a JSON tree.
     *
     * @throws BadRequestException if the body is empty or not valid JSON
     */
    public JsonNode parse(byte[] body) {
        if (body == null || body.length == 0) {
            throw new BadRequestException("request body must be valid JSON");
        }
        try {
            JsonNode node = mapper.readTree(body);
            if (node == null || node.isMissingNode()) {
                throw new BadRequestException("request body must be valid JSON");
            }
            return node;
        } catch (JsonProcessingException e) {
            throw new BadRequestException("request body must be valid JSON", e);
        } catch (IOException e) {
            throw new BadRequestException("request body could not be read", e);
        }
    }

    /** Serialises a value to UTF-8 JSON bytes. */
    public byte[] write(Object value) {
        try {
            return mapper.writeValueAsBytes(value);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
