package com.example.bookmarks.error;

/** 404: no such resource or route. */
public class NotFoundException extends ApiException {

    private static final long serialVersionUID = 1L;

    public NotFoundException(String message) {
        super(404, message);
    }
}
