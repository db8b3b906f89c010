package com.example.bookmarks.server;

import com.example.bookmarks.json.JsonCodec;
import com.example.bookmarks.model.ErrorBody;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.handler.ErrorHandler;

import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.Locale;

/**
 * Renders errors raised inside Jetty itself (malformed requests, unmapped paths, etc.) with the
 * same {@code {"error": "..."}} JSON body the API uses, instead of Jetty's HTML pages.
 */
public final class JsonErrorHandler extends ErrorHandler {

    private final JsonCodec json;

    public JsonErrorHandler(JsonCodec json) {
        this.json = json;
        setShowStacks(false);
        setShowServlet(false);
    }

    @Override
    public boolean errorPageForMethod(String method) {
        return true;
    }

    @Override
    protected void generateAcceptableResponse(Request baseRequest, HttpServletRequest request,
                                              HttpServletResponse response, int code, String message)
            throws IOException {
        writeJson(baseRequest, response, code, message);
    }

    @Override
    protected void generateAcceptableResponse(Request baseRequest, HttpServletRequest request,
                                              HttpServletResponse response, int code, String message,
                                              String contentType) throws IOException {
        writeJson(baseRequest, response, code, message);
    }

    @Override
    public ByteBuffer badMessageError(int status, String reason, HttpFields fields) {
        fields.put(HttpHeader.CONTENT_TYPE, "application/json");
        return ByteBuffer.wrap(json.write(new ErrorBody(describe(status, reason))));
    }

    private void writeJson(Request baseRequest, HttpServletResponse response, int code, String message)
            throws IOException {
        baseRequest.setHandled(true);
        if (response.isCommitted()) {
            return;
        }
        byte[] bytes = json.write(new ErrorBody(describe(code, message)));
        response.setContentType("application/json");
        response.setContentLength(bytes.length);
        OutputStream out = response.getOutputStream();
        out.write(bytes);
        out.flush();
    }

    private static String describe(int status, String reason) {
        if (reason != null && !reason.isBlank()) {
            return reason;
        }
        String standard = HttpStatus.getMessage(status);
        return standard == null ? "error" : standard.toLowerCase(Locale.ROOT);
    }
}
