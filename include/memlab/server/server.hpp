// `memlab serve`: the web lab's HTTP server (issue 11). Loopback by default; a random token
// (printed in the start-up URL, as Jupyter does) guards every request that starts GPU work or runs
// code; Host and Origin are checked against DNS rebinding and cross-site requests; bodies are
// bounded; every error is JSON naming the parameter. Routes: TEAM.md, contract 2.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

namespace memlab::server {

struct ServerOptions {
  std::string host = "127.0.0.1";
  int port = 8080;          // 0: an ephemeral port (tests)
  std::string results_dir;  // JSON runs listed by /api/results; empty: none
  std::string token;        // empty: 32 random bytes from /dev/urandom
  std::string memlab_exe;   // the exercise worker binary; empty: this executable
  std::size_t max_body_bytes = 256 * 1024;
  std::size_t max_source_bytes = 64 * 1024;  // an exercise's source
  int threads = 8;                           // HTTP worker threads (bounded pool)
  int io_timeout_s = 5;                      // read/write/keep-alive timeout of a connection
  // The class lab (issue 22, docs/class-lab.md): DIR holds class.db (memlab class init). Empty:
  // the single-user lab, one token with role "owner".
  std::string class_dir;
  std::size_t max_queued_checks = 3;  // per learner
  double checks_per_minute = 6;       // per learner, burst 5
  double check_timeout_s = 0;         // the worker's wall limit per check; 0: 60 (class), 240
};

class Server {
 public:
  // Checks the options: a --host other than loopback needs an explicit token (UsageError).
  explicit Server(ServerOptions options);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Binds the socket (UsageError naming --host/--port if that fails) and returns the port.
  int bind();
  // Serves until stop(); call after bind().
  void listen();
  // bind() + listen() on a thread; returns the port.
  int start_in_background();
  void stop();

  std::string url() const;  // http://HOST:PORT/?token=...
  const std::string& token() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace memlab::server
