package app;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Unchecked error carrying an HTTP status code and a message.
 * Rendered to clients as {@code {"error": "<message>"}}.
 */
public class ApiException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int status;

    public ApiException(int status, String message) {
        super(message == null ? "" : message);
        this.status = status;
    }

    public ApiException(int status, String message, Throwable cause) {
        super(message == null ? "" : message, cause);
        this.status = status;
    }

    // ---- factories -------------------------------------------------------

    public static ApiException badRequest(String message) {
        return new ApiException(400, message);
    }

    public static ApiException notFound(String message) {
        return new ApiException(404, message);
    }

    public static ApiException notFound() {
        return new ApiException(404, "not found");
    }

    public static ApiException methodNotAllowed(String message) {
        return new ApiException(405, message);
    }

    public static ApiException methodNotAllowed() {
        return new ApiException(405, "method not allowed");
    }

    public static ApiException internal(String message) {
        return new ApiException(500, message);
    }

    // ---- accessors -------------------------------------------------------

    public int getStatus() {
        return status;
    }

    public int getStatusCode() {
        return status;
    }

    public int status() {
        return status;
    }

    // ---- rendering -------------------------------------------------------

    /** The error body as a map, suitable for serialization with Jackson. */
    public Map<String, Object> toMap() {
        return errorBody(getMessage());
    }

    /** The error body as a JSON string: {"error": "<message>"}. */
    public String toJson() {
        return errorJson(getMessage());
    }

    public static Map<String, Object> errorBody(String message) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("error", message == null ? "" : message);
        return Collections.unmodifiableMap(body);
    }

    public static String errorJson(String message) {
        return "{\"error\": \"" + escape(message == null ? "" : message) + "\"}";
    }

    private static String escape(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"': sb.append("\\\""); break;
                case '\\': sb.append("\\\\"); break;
                case '\b': sb.append("\\b"); break;
                case '\f': sb.append("\\f"); break;
                case '\n': sb.append("\\n"); break;
                case '\r': sb.append("\\r"); break;
                case '\t': sb.append("\\t"); break;
                default:
                    if (c < 0x20) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
            }
        }
        return sb.toString();
    }

    @Override
    public String toString() {
        return "ApiException(" + status + "): " + getMessage();
    }
}
