// The server's guards (issue 11, section 5): the token, the Host and Origin checks. Pure
// functions over strings, so the tests can hit every branch without a socket.
#pragma once

#include <string>
#include <string_view>

namespace memlab::server {

// 32 random bytes from /dev/urandom as 64 hex digits. Throws std::runtime_error if the device
// cannot be read (never falls back to a weaker source).
std::string random_token();

// Compares in time that depends only on the lengths, not on where the strings differ.
bool tokens_equal(std::string_view expected, std::string_view given);

// "127.0.0.1", "::1", "localhost" and the rest of 127.0.0.0/8.
bool is_loopback_host(std::string_view host);

// The Host header must name the server as the browser reached it: the bound host and port, or,
// on a loopback server, localhost / 127.0.0.1 / [::1] with that port. Anything else (a DNS
// rebinding attack names its own domain) is refused.
bool host_allowed(std::string_view host_header, std::string_view bound_host, int port);

// An Origin header, when a browser sends one, must be http://<an allowed Host>. "null" (file://
// pages, sandboxed frames) and foreign sites are refused.
bool origin_allowed(std::string_view origin, std::string_view bound_host, int port);

}  // namespace memlab::server
