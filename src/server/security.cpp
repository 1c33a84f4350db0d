#include "security.hpp"

#include <fmt/format.h>

#include <array>
#include <cstdio>
#include <stdexcept>

namespace memlab::server {

std::string random_token() {
  std::array<unsigned char, 32> bytes{};
  std::FILE* f = std::fopen("/dev/urandom", "rb");
  if (f == nullptr) throw std::runtime_error("cannot open /dev/urandom for the server token");
  const std::size_t got = std::fread(bytes.data(), 1, bytes.size(), f);
  std::fclose(f);
  if (got != bytes.size()) throw std::runtime_error("short read from /dev/urandom");
  std::string hex;
  for (unsigned char b : bytes) hex += fmt::format("{:02x}", b);
  return hex;
}

bool tokens_equal(std::string_view expected, std::string_view given) {
  // Every byte of `given` is visited whatever the contents; the length difference is folded in.
  unsigned diff = expected.size() == given.size() ? 0u : 1u;
  for (std::size_t i = 0; i < given.size(); ++i) {
    const unsigned char e =
        expected.empty() ? 0 : static_cast<unsigned char>(expected[i % expected.size()]);
    diff |= static_cast<unsigned>(e ^ static_cast<unsigned char>(given[i]));
  }
  return diff == 0 && !expected.empty();
}

bool is_loopback_host(std::string_view host) {
  if (host == "localhost" || host == "::1" || host == "[::1]") return true;
  if (host.substr(0, 4) != "127.") return false;
  // 127.a.b.c with digits only.
  int dots = 0;
  for (char c : host) {
    if (c == '.') {
      ++dots;
    } else if (c < '0' || c > '9') {
      return false;
    }
  }
  return dots == 3;
}

namespace {

bool host_names_server(std::string_view name, std::string_view bound_host) {
  if (name == bound_host) return true;
  if (bound_host == "::1" && name == "[::1]") return true;
  // A loopback server is reached under any of the loopback names (a browser types one of them).
  if (is_loopback_host(bound_host)) {
    return name == "localhost" || name == "127.0.0.1" || name == "[::1]";
  }
  return false;
}

}  // namespace

bool host_allowed(std::string_view host_header, std::string_view bound_host, int port) {
  if (host_header.empty() || host_header.size() > 255) return false;
  // Split "name:port"; an IPv6 literal is bracketed ("[::1]:8080").
  std::string_view name = host_header;
  std::string_view port_text;
  const std::size_t colon = host_header.rfind(':');
  const std::size_t bracket = host_header.rfind(']');
  if (colon != std::string_view::npos && (bracket == std::string_view::npos || colon > bracket)) {
    name = host_header.substr(0, colon);
    port_text = host_header.substr(colon + 1);
  }
  // Browsers always send the port unless it is the scheme's default (80).
  const std::string expected_port = std::to_string(port);
  if (port_text.empty() ? port != 80 : port_text != expected_port) return false;
  return host_names_server(name, bound_host);
}

bool origin_allowed(std::string_view origin, std::string_view bound_host, int port) {
  constexpr std::string_view kScheme = "http://";
  if (origin.substr(0, kScheme.size()) != kScheme) return false;
  return host_allowed(origin.substr(kScheme.size()), bound_host, port);
}

}  // namespace memlab::server
