package com.example.bookmarks.model;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;

@JsonPropertyOrder({"tag", "count"})
public class TagCount {

    private final String tag;
    private final long count;

    public TagCount(String tag, long count) {
        this.tag = tag;
        this.count = count;
    }

    public String getTag() {
        return tag;
    }

    public long getCount() {
        return count;
    }
}
