package com.example.bookmarks.model;

/** Body of every error response: {@code {"error": "<message>"}}. */
public record ErrorBody(String error) {
}
