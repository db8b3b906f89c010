package com.example.bookmarks.error;

import java.util.Collections;
import java.util.Set;
import java.util.TreeSet;

/** 405: the path exists but does not support the request method. */
public class MethodNotAllowedException extends ApiException {

    private static final long serialVersionUID = 1L;

    private final Set<String> allowed;

    public MethodNotAllowedException(Set<String> allowed) {
        super(405, "method not allowed");
        this.allowed = Collections.unmodifiableSet(new TreeSet<>(allowed));
    }

    public Set<String> allowed() {
        return allowed;
    }
}
