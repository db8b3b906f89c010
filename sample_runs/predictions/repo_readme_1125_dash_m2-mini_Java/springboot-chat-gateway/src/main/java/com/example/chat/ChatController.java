package com.example.chat;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.bind.MissingServletRequestParameterException;
import org.springframework.web.bind.annotation.*;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.*;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

@RestController
@RequestMapping("/api")
public class ChatController {

    static final long TOKEN_TTL_MS = 3600_000L;
    static final Set<String> STATUSES = Set.of("ONLINE", "OFFLINE", "AWAY");
    static final Set<String> MSG_TYPES = Set.of("TEXT", "IMAGE", "FILE");

    static class ApiException extends RuntimeException {
        final HttpStatus status;
        ApiException(HttpStatus status, String msg) { super(msg); this.status = status; }
    }

    static class User {
        String userId, username, email, passwordHash, status = "OFFLINE";
        long createdAt, lastActive;
    }

    static class Message {
        String messageId, senderId, recipientId, content, type, status;
        long timestamp;
    }

    static class Group {
        String groupId, name, description, creatorId;
        long createdAt;
        final Map<String, Member> members = Collections.synchronizedMap(new LinkedHashMap<>());
        final List<Message> messages = new CopyOnWriteArrayList<>();
    }

    static class Member {
        String userId, role;
        long joinedAt;
    }

    private final Map<String, User> users = new ConcurrentHashMap<>();
    private final Map<String, String> usernameIndex = new ConcurrentHashMap<>();
    private final Map<String, long[]> tokenExpiry = new ConcurrentHashMap<>();
    private final Map<String, String> tokens = new ConcurrentHashMap<>();
    private final List<Message> privateMessages = new CopyOnWriteArrayList<>();
    private final Map<String, Group> groups = new ConcurrentHashMap<>();
    private final long startTime = System.currentTimeMillis();

    @Value("${app.version:1.0.0}")
    private String version;

    // ---------------- helpers ----------------
    static String str(Map<String, Object> body, String key, boolean required) {
        if (body == null) throw new ApiException(HttpStatus.BAD_REQUEST, "Request body is required");
        Object v = body.get(key);
        if (v == null) {
            if (required) throw new ApiException(HttpStatus.BAD_REQUEST, key + " is required");
            return null;
        }
        if (!(v instanceof String)) throw new ApiException(HttpStatus.BAD_REQUEST, key + " must be a string");
        String s = ((String) v).trim();
        if (required && s.isEmpty()) throw new ApiException(HttpStatus.BAD_REQUEST, key + " is required");
        return s;
    }

    static String hash(String s) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            StringBuilder sb = new StringBuilder();
            for (byte b : md.digest(s.getBytes(StandardCharsets.UTF_8))) sb.append(String.format("%02x", b));
            return sb.toString();
        } catch (Exception e) {
            throw new RuntimeException(e);
        }
    }

    private User requireUser(String userId, HttpStatus notFoundStatus) {
        User u = userId == null ? null : users.get(userId);
        if (u == null) throw new ApiException(notFoundStatus, "User not found: " + userId);
        return u;
    }

    private Group requireGroup(String groupId) {
        Group g = groups.get(groupId);
        if (g == null) throw new ApiException(HttpStatus.NOT_FOUND, "Group not found");
        return g;
    }

    // ---------------- users ----------------
    @PostMapping("/users/register")
    public ResponseEntity<Map<String, Object>> register(@RequestBody(required = false) Map<String, Object> body) {
        String username = str(body, "username", true);
        String email = str(body, "email", true);
        String password = str(body, "password", true);
        if (!email.contains("@")) throw new ApiException(HttpStatus.BAD_REQUEST, "Invalid email");
        if (password.length() < 6) throw new ApiException(HttpStatus.BAD_REQUEST, "Password must be at least 6 characters");
        synchronized (usernameIndex) {
            if (usernameIndex.containsKey(username.toLowerCase()))
                throw new ApiException(HttpStatus.CONFLICT, "Username already exists");
            User u = new User();
            u.userId = UUID.randomUUID().toString();
            u.username = username;
            u.email = email;
            u.passwordHash = hash(password);
            u.createdAt = System.currentTimeMillis();
            u.lastActive = u.createdAt;
            users.put(u.userId, u);
            usernameIndex.put(username.toLowerCase(), u.userId);
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("userId", u.userId);
            out.put("username", u.username);
            out.put("createdAt", u.createdAt);
            return ResponseEntity.status(HttpStatus.CREATED).body(out);
        }
    }

    @PostMapping("/users/login")
    public Map<String, Object> login(@RequestBody(required = false) Map<String, Object> body) {
        String username = str(body, "username", true);
        String password = str(body, "password", true);
        String uid = usernameIndex.get(username.toLowerCase());
        User u = uid == null ? null : users.get(uid);
        if (u == null || !u.passwordHash.equals(hash(password)))
            throw new ApiException(HttpStatus.UNAUTHORIZED, "Invalid username or password");
        String token = UUID.randomUUID().toString().replace("-", "");
        tokens.put(token, u.userId);
        tokenExpiry.put(token, new long[]{System.currentTimeMillis() + TOKEN_TTL_MS});
        u.status = "ONLINE";
        u.lastActive = System.currentTimeMillis();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("token", token);
        out.put("userId", u.userId);
        out.put("expiresIn", TOKEN_TTL_MS / 1000);
        return out;
    }

    @GetMapping("/users/{userId}/status")
    public Map<String, Object> getStatus(@PathVariable String userId) {
        User u = requireUser(userId, HttpStatus.NOT_FOUND);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("userId", u.userId);
        out.put("status", u.status);
        out.put("lastActive", u.lastActive);
        return out;
    }

    @PutMapping("/users/{userId}/status")
    public Map<String, Object> updateStatus(@PathVariable String userId, @RequestBody(required = false) Map<String, Object> body) {
        User u = requireUser(userId, HttpStatus.NOT_FOUND);
        String status = str(body, "status", true).toUpperCase();
        if (!STATUSES.contains(status)) throw new ApiException(HttpStatus.BAD_REQUEST, "Invalid status: " + status);
        u.status = status;
        long now = System.currentTimeMillis();
        u.lastActive = now;
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("userId", u.userId);
        out.put("status", u.status);
        out.put("updatedAt", now);
        return out;
    }

    // ---------------- private messages ----------------
    @PostMapping("/messages/send")
    public ResponseEntity<Map<String, Object>> send(@RequestBody(required = false) Map<String, Object> body) {
        String senderId = str(body, "senderId", true);
        String recipientId = str(body, "recipientId", true);
        String content = str(body, "content", true);
        String type = str(body, "type", false);
        type = type == null || type.isEmpty() ? "TEXT" : type.toUpperCase();
        if (!MSG_TYPES.contains(type)) throw new ApiException(HttpStatus.BAD_REQUEST, "Invalid message type");
        User sender = requireUser(senderId, HttpStatus.NOT_FOUND);
        User recipient = requireUser(recipientId, HttpStatus.NOT_FOUND);
        Message m = new Message();
        m.messageId = UUID.randomUUID().toString();
        m.senderId = senderId;
        m.recipientId = recipientId;
        m.content = content;
        m.type = type;
        m.timestamp = System.currentTimeMillis();
        m.status = "ONLINE".equals(recipient.status) ? "DELIVERED" : "SENT";
        privateMessages.add(m);
        sender.lastActive = m.timestamp;
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("messageId", m.messageId);
        out.put("timestamp", m.timestamp);
        out.put("status", m.status);
        return ResponseEntity.status(HttpStatus.CREATED).body(out);
    }

    @GetMapping("/messages/history")
    public Map<String, Object> history(@RequestParam String userId1,
                                       @RequestParam String userId2,
                                       @RequestParam(required = false) Integer limit,
                                       @RequestParam(required = false) Long before) {
        int lim = limit == null ? 50 : limit;
        if (lim <= 0) throw new ApiException(HttpStatus.BAD_REQUEST, "limit must be positive");
        List<Message> conv = privateMessages.stream()
                .filter(m -> (m.senderId.equals(userId1) && m.recipientId.equals(userId2))
                        || (m.senderId.equals(userId2) && m.recipientId.equals(userId1)))
                .filter(m -> before == null || m.timestamp < before)
                .sorted(Comparator.comparingLong(m -> m.timestamp))
                .collect(Collectors.toList());
        if (conv.size() > lim) conv = conv.subList(conv.size() - lim, conv.size());
        List<Map<String, Object>> msgs = new ArrayList<>();
        for (Message m : conv) {
            Map<String, Object> mm = new LinkedHashMap<>();
            mm.put("messageId", m.messageId);
            mm.put("senderId", m.senderId);
            mm.put("recipientId", m.recipientId);
            mm.put("content", m.content);
            mm.put("timestamp", m.timestamp);
            msgs.add(mm);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("messages", msgs);
        return out;
    }

    // ---------------- groups ----------------
    @PostMapping("/groups/create")
    public ResponseEntity<Map<String, Object>> createGroup(@RequestBody(required = false) Map<String, Object> body) {
        String creatorId = str(body, "creatorId", true);
        String name = str(body, "name", true);
        String description = str(body, "description", false);
        requireUser(creatorId, HttpStatus.NOT_FOUND);
        Group g = new Group();
        g.groupId = UUID.randomUUID().toString();
        g.name = name;
        g.description = description == null ? "" : description;
        g.creatorId = creatorId;
        g.createdAt = System.currentTimeMillis();
        Member owner = new Member();
        owner.userId = creatorId;
        owner.role = "OWNER";
        owner.joinedAt = g.createdAt;
        g.members.put(creatorId, owner);
        groups.put(g.groupId, g);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("groupId", g.groupId);
        out.put("name", g.name);
        out.put("createdAt", g.createdAt);
        return ResponseEntity.status(HttpStatus.CREATED).body(out);
    }

    @PostMapping("/groups/{groupId}/join")
    public Map<String, Object> join(@PathVariable String groupId, @RequestBody(required = false) Map<String, Object> body) {
        Group g = requireGroup(groupId);
        String userId = str(body, "userId", true);
        requireUser(userId, HttpStatus.NOT_FOUND);
        Member m;
        synchronized (g.members) {
            if (g.members.containsKey(userId)) throw new ApiException(HttpStatus.CONFLICT, "User already in group");
            m = new Member();
            m.userId = userId;
            m.role = "MEMBER";
            m.joinedAt = System.currentTimeMillis();
            g.members.put(userId, m);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("groupId", g.groupId);
        out.put("userId", userId);
        out.put("role", m.role);
        out.put("joinedAt", m.joinedAt);
        return out;
    }

    @PostMapping("/groups/{groupId}/leave")
    public Map<String, Object> leave(@PathVariable String groupId, @RequestBody(required = false) Map<String, Object> body) {
        Group g = requireGroup(groupId);
        String userId = str(body, "userId", true);
        if (g.members.remove(userId) == null)
            throw new ApiException(HttpStatus.BAD_REQUEST, "User is not a member of this group");
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("success", true);
        out.put("message", "User left the group successfully");
        return out;
    }

    @PostMapping("/groups/{groupId}/messages")
    public ResponseEntity<Map<String, Object>> groupMessage(@PathVariable String groupId, @RequestBody(required = false) Map<String, Object> body) {
        Group g = requireGroup(groupId);
        String senderId = str(body, "senderId", true);
        String content = str(body, "content", true);
        String type = str(body, "type", false);
        type = type == null || type.isEmpty() ? "TEXT" : type.toUpperCase();
        if (!MSG_TYPES.contains(type)) throw new ApiException(HttpStatus.BAD_REQUEST, "Invalid message type");
        requireUser(senderId, HttpStatus.NOT_FOUND);
        if (!g.members.containsKey(senderId)) throw new ApiException(HttpStatus.FORBIDDEN, "Sender is not a member of this group");
        Message m = new Message();
        m.messageId = UUID.randomUUID().toString();
        m.senderId = senderId;
        m.content = content;
        m.type = type;
        m.timestamp = System.currentTimeMillis();
        g.messages.add(m);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("messageId", m.messageId);
        out.put("groupId", g.groupId);
        out.put("timestamp", m.timestamp);
        return ResponseEntity.status(HttpStatus.CREATED).body(out);
    }

    @GetMapping("/groups/{groupId}/members")
    public Map<String, Object> members(@PathVariable String groupId) {
        Group g = requireGroup(groupId);
        List<Map<String, Object>> list = new ArrayList<>();
        synchronized (g.members) {
            for (Member m : g.members.values()) {
                User u = users.get(m.userId);
                Map<String, Object> mm = new LinkedHashMap<>();
                mm.put("userId", m.userId);
                mm.put("username", u == null ? null : u.username);
                mm.put("role", m.role);
                list.add(mm);
            }
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("groupId", g.groupId);
        out.put("members", list);
        return out;
    }

    // ---------------- system ----------------
    @GetMapping("/system/health")
    public Map<String, Object> health() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("status", "UP");
        out.put("uptime", System.currentTimeMillis() - startTime);
        out.put("version", version);
        return out;
    }

    // ---------------- errors ----------------
    @ExceptionHandler(ApiException.class)
    public ResponseEntity<Map<String, Object>> handleApi(ApiException e) {
        return error(e.status, e.getMessage());
    }

    @ExceptionHandler({HttpMessageNotReadableException.class, MissingServletRequestParameterException.class,
            MethodArgumentTypeMismatchException.class})
    public ResponseEntity<Map<String, Object>> handleBadRequest(Exception e) {
        return error(HttpStatus.BAD_REQUEST, e.getMessage());
    }

    private ResponseEntity<Map<String, Object>> error(HttpStatus status, String msg) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("error", status.getReasonPhrase());
        out.put("message", msg);
        out.put("status", status.value());
        out.put("timestamp", System.currentTimeMillis());
        return ResponseEntity.status(status).body(out);
    }
}
