package com.example.chat;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

@SpringBootApplication
public class ChatGatewayApplication {
    public static void main(String[] args) {
        SpringApplication.run(ChatGatewayApplication.class, args);
    }
}
