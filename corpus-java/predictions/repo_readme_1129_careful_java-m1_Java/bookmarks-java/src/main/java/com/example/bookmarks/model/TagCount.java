package com.example.bookmarks.model;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/** Number of bookmarks carrying a given tag. */
@JsonPropertyOrder({"tag", "count"})
public record TagCount(String tag, long count) {
}
