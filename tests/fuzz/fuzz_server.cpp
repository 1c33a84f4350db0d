// libFuzzer harness: `memlab serve`'s request handling (src/server): the Host / Origin / method
// guard, the token, and every /api route's path, query and JSON body (POST /api/runs into the
// plan API, GET|POST /api/model/<name> into the models, exercise check bodies, results ids,
// lessons, static paths). The input is one raw HTTP request (or several, pipelined) sent over a
// loopback socket to a server started once in this process; "$HOST" in the input becomes the
// server's host:port and "$TOKEN" its token, so the seeds pass the guards. An input holding
// "$CLASS" goes to a second server, a class lab (issue 22: --class, a fresh class.db), where
// "$TOKEN" is the teacher's token, "$LEARNER" a learner's and "$CODE" the class code. The device,
// the job queue's work and the exercise worker are stubbed (fuzz_server_stubs.cpp): nothing runs on
// a GPU or starts a process. An answer with status 500 ("internal error (a bug in memlab)") is a
// crash.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>

#include "class_store.hpp"
#include "memlab/server/server.hpp"

namespace {

constexpr const char* kToken = "fuzz-token-0123456789abcdef";

struct Running {
  std::unique_ptr<memlab::server::Server> server;
  int port = 0;
  std::string teacher, learner, code;
};

Running start(bool klass) {
  memlab::server::ServerOptions o;
  o.host = "127.0.0.1";
  o.port = 0;
  o.threads = 2;
  o.io_timeout_s = 2;
  Running x;
  if (klass) {
    char dir[] = "/tmp/memlab-fuzz-class-XXXXXX";
    if (mkdtemp(dir) == nullptr) std::abort();
    const auto c = memlab::server::ClassStore::create(dir, "fuzz", 86400, {"Ada", "Grace"});
    o.class_dir = dir;
    x.teacher = c.teacher.token;
    x.learner = c.learners[0].token;
    x.code = c.code;
  } else {
    o.token = kToken;
    x.teacher = kToken;
  }
  x.server = std::make_unique<memlab::server::Server>(o);
  x.port = x.server->start_in_background();
  return x;
}

Running& running(bool klass) {
  static Running single = start(false);
  static Running lab = start(true);
  return klass ? lab : single;
}

void replace_all(std::string& s, const std::string& from, const std::string& to) {
  for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size())) {
    s.replace(at, from.size(), to);
  }
}

std::string round_trip(int port, const std::string& request) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return {};
  timeval tv{5, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<std::uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  std::string response;
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0) {
    std::size_t sent = 0;
    while (sent < request.size()) {
      const ssize_t n = send(fd, request.data() + sent, request.size() - sent, MSG_NOSIGNAL);
      if (n <= 0) break;
      sent += static_cast<std::size_t>(n);
    }
    shutdown(fd, SHUT_WR);
    char buf[8192];
    for (ssize_t n; (n = recv(fd, buf, sizeof buf, 0)) > 0;) {
      response.append(buf, static_cast<std::size_t>(n));
    }
  }
  close(fd);
  return response;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string request(reinterpret_cast<const char*>(data), size);
  const bool klass = request.find("$CLASS") != std::string::npos;
  Running& r = running(klass);
  replace_all(request, "$CLASS", "");
  replace_all(request, "$HOST", "127.0.0.1:" + std::to_string(r.port));
  replace_all(request, "$TOKEN", r.teacher);
  replace_all(request, "$LEARNER", r.learner);
  replace_all(request, "$CODE", r.code);
  const std::string response = round_trip(r.port, request);
  // Walk the responses (pipelined requests get one each): every one is HTTP and none is a 500
  // (memlab's "internal error (a bug in memlab)"). The status line is parsed, not searched for:
  // error bodies echo parts of the request (a Host header, a path), which may hold any text.
  std::size_t at = 0;
  while (at < response.size()) {
    if (response.compare(at, 9, "HTTP/1.1 ") != 0) __builtin_trap();
    if (response.compare(at + 9, 3, "500") == 0) __builtin_trap();
    const std::size_t end = response.find("\r\n\r\n", at);
    if (end == std::string::npos) break;
    std::size_t length = 0;
    const std::size_t cl = response.find("Content-Length: ", at);
    if (cl != std::string::npos && cl < end)
      length = std::strtoul(response.c_str() + cl + 16, nullptr, 10);
    // A HEAD answer has a Content-Length and no body: the next response starts right here.
    at = response.compare(end + 4, 9, "HTTP/1.1 ") == 0 ? end + 4 : end + 4 + length;
  }
  return 0;
}
