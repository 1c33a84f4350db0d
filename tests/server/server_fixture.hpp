// A memlab server on an ephemeral loopback port, in the test process, and a raw-socket client
// for requests an HTTP library would refuse to send.
#pragma once

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <httplib.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "memlab/server/server.hpp"

namespace memlab::server::testing {

class ServerTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    ServerOptions o;
    o.port = 0;
    o.results_dir = std::string(MEMLAB_SOURCE_DIR) + "/docs/results";
    o.memlab_exe = MEMLAB_BINARY;
    o.io_timeout_s = 2;
    o.threads = 4;
    server_ = new Server(o);
    port_ = server_->start_in_background();
  }
  static void TearDownTestSuite() {
    delete server_;
    server_ = nullptr;
  }

  static httplib::Client client() {
    httplib::Client c("127.0.0.1", port_);
    c.set_read_timeout(20, 0);
    return c;
  }
  static httplib::Headers with_token() { return {{"X-Memlab-Token", server_->token()}}; }

  // The response's JSON body (a failed parse fails the test).
  static nlohmann::json body(const httplib::Result& r) {
    EXPECT_TRUE(r) << "no response";
    if (!r) return {};
    EXPECT_EQ(r->get_header_value("Content-Type"), "application/json") << r->body;
    return nlohmann::json::parse(r->body, nullptr, false);
  }

  // Sends `bytes` as they are and returns what comes back until the server closes (or 5 s).
  static std::string raw(const std::string& bytes, bool close_write = false) {
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<std::uint16_t>(port_));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    std::string out;
    if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0) {
      timeval tv{5, 0};
      setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
      (void)!write(fd, bytes.data(), bytes.size());
      if (close_write) shutdown(fd, SHUT_WR);
      char buf[4096];
      for (ssize_t n; (n = read(fd, buf, sizeof buf)) > 0;)
        out.append(buf, static_cast<std::size_t>(n));
    }
    close(fd);
    return out;
  }

  static std::string host() { return "127.0.0.1:" + std::to_string(port_); }

  static inline Server* server_ = nullptr;
  static inline int port_ = 0;
};

}  // namespace memlab::server::testing
