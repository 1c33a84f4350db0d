// Hostile requests against `memlab serve` (issue 11, section 5): each is refused with a JSON
// error naming what was wrong, and the server keeps answering.
#include <thread>

#include "server_fixture.hpp"

namespace memlab::server::testing {
namespace {

const std::string kRun = R"({"experiments":["bandwidth"],"quick":true})";

TEST_F(ServerTest, RunWithoutTokenIs401) {
  auto r = client().Post("/api/runs", kRun, "application/json");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 401);
  EXPECT_EQ(body(r)["parameter"], "X-Memlab-Token");
}

// An unknown token is not authenticated: 401 (403 is a known token without the route's role).
TEST_F(ServerTest, RunWithWrongTokenIs401) {
  auto r = client().Post("/api/runs", {{"X-Memlab-Token", server_->token() + "0"}}, kRun,
                         "application/json");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 401);
  EXPECT_EQ(body(r)["parameter"], "X-Memlab-Token");
  std::string flipped = server_->token();
  flipped[0] = flipped[0] == 'a' ? 'b' : 'a';
  r = client().Post("/api/runs", {{"X-Memlab-Token", flipped}}, kRun, "application/json");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 401);
}

TEST_F(ServerTest, ForeignHostIsRefused) {
  const std::string port = std::to_string(port_);
  const std::vector<std::string> hosts = {"evil.example:" + port, "127.0.0.1:1",
                                          "127.0.0.1.evil.example:" + port};
  for (const std::string& h : hosts) {
    auto r = client().Get("/api/info", {{"Host", h}});
    ASSERT_TRUE(r) << h;
    EXPECT_EQ(r->status, 403) << h;
    EXPECT_EQ(body(r)["parameter"], "Host") << h;
  }
  auto ok = client().Get("/api/info", {{"Host", "localhost:" + std::to_string(port_)}});
  ASSERT_TRUE(ok);
  EXPECT_EQ(ok->status, 200);
  // No Host at all (HTTP/1.0): refused.
  EXPECT_NE(raw("GET /api/info HTTP/1.0\r\n\r\n").find("403"), std::string::npos);
}

TEST_F(ServerTest, ForeignOriginIsRefusedEvenWithToken) {
  for (const char* origin : {"http://evil.example", "null", "https://127.0.0.1"}) {
    httplib::Headers h = with_token();
    h.emplace("Origin", origin);
    auto r = client().Post("/api/runs", h, kRun, "application/json");
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 403) << origin;
    EXPECT_EQ(body(r)["parameter"], "Origin") << origin;
  }
  auto same = client().Get("/api/info", {{"Origin", "http://" + host()}});
  ASSERT_TRUE(same);
  EXPECT_EQ(same->status, 200);
}

TEST_F(ServerTest, HugeBodyIs413) {
  const std::string huge(300 * 1024, 'x');
  auto r = client().Post("/api/runs", with_token(), huge, "application/json");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 413);
  EXPECT_EQ(body(r)["parameter"], "body");
}

TEST_F(ServerTest, MalformedJsonIs400NamingTheBody) {
  for (const char* text : {"{", "{\"experiments\": [", "not json", "[1,2]", "\"x\""}) {
    auto r = client().Post("/api/runs", with_token(), text, "application/json");
    ASSERT_TRUE(r) << text;
    EXPECT_EQ(r->status, 400) << text;
    EXPECT_EQ(body(r)["parameter"], "body") << text;
  }
}

TEST_F(ServerTest, BadRunParametersAre400NamingThem) {
  struct Case {
    const char* json;
    const char* parameter;
    const char* mentions;
  };
  for (const Case& c : {
           Case{R"({"experiments":["nope"]})", "experiments", "'nope' is unknown"},
           Case{R"({"experiments":["coalescing"],"axes":{"stride":["0"]}})", "axes.stride",
                "out of range"},
           Case{R"({"experiments":["coalescing"],"axes":{"stride":["two"]}})", "axes.stride",
                "'two'"},
           Case{R"({"experiments":["coalescing"],"axes":{"colour":["1"]}})", "axes.colour",
                "not an axis"},
           Case{R"({"experiments":["bandwidth"],"variants":["fastest"]})", "variants", "fastest"},
           Case{R"({"experiments":["bandwidth"],"quick":"yes"})", "quick", "true or false"},
           Case{R"({"experiments":"bandwidth"})", "experiments", "list"},
           Case{R"({"rm -rf":1})", "rm -rf", "unknown key"},
       }) {
    auto r = client().Post("/api/runs", with_token(), c.json, "application/json");
    ASSERT_TRUE(r) << c.json;
    EXPECT_EQ(r->status, 400) << c.json;
    const auto j = body(r);
    EXPECT_EQ(j["parameter"], c.parameter) << c.json << " -> " << j.dump();
    EXPECT_NE(j.value("error", "").find(c.mentions), std::string::npos) << j.dump();
  }
  // The cartesian product is bounded before it is built.
  std::string many = R"({"experiments":["coalescing"],"axes":{"stride":[)";
  for (int i = 1; i <= 64; ++i) {
    if (i > 1) many += ',';
    many += std::to_string(i);
  }
  many += R"(],"offset":[)";
  for (int i = 0; i < 64; ++i) {
    if (i > 0) many += ',';
    many += std::to_string(i);
  }
  many += "]}}";
  auto r = client().Post("/api/runs", with_token(), many, "application/json");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 400);
  EXPECT_EQ(body(r)["parameter"], "axes");
}

TEST_F(ServerTest, ValidRunWithTokenAnswersNoCudaDeviceHere) {
  auto info = body(client().Get("/api/info"));
  if (!info["device"].is_null()) GTEST_SKIP() << "a CUDA device is present";
  auto r = client().Post("/api/runs", with_token(), kRun, "application/json");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 503);
  EXPECT_EQ(body(r)["error"].get<std::string>().rfind("no CUDA device (", 0), 0u) << r->body;
}

TEST_F(ServerTest, PathTraversalFindsNothing) {
  for (const char* path :
       {"/../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/assets/../../../etc/passwd",
        "/..%2f..%2fetc%2fpasswd", "/api/lessons/../..", "/api/lessons/..%2f..%2fCMakeLists.txt",
        "/api/lessons/%2e%2e", "/api/results/..%2f..%2fCMakeLists", "/api/results/../../README",
        "/web/index.html", "//etc/passwd", "/wasm/../../etc/passwd"}) {
    auto r = client().Get(path);
    ASSERT_TRUE(r) << path;
    EXPECT_EQ(r->status, 404) << path << " " << r->body.substr(0, 200);
    EXPECT_EQ(r->body.find("root:"), std::string::npos) << path;
    EXPECT_EQ(r->body.find("cmake_minimum_required"), std::string::npos) << path;
  }
  const std::string reply = raw(
      "GET /../../../../etc/passwd HTTP/1.1\r\nHost: " + host() + "\r\nConnection: close\r\n\r\n",
      false);
  EXPECT_EQ(reply.find("root:"), std::string::npos);
  EXPECT_NE(reply.find("404"), std::string::npos) << reply.substr(0, 200);
}

TEST_F(ServerTest, PostWithoutContentLengthNamesTheHeader) {
  const std::string reply =
      raw("POST /api/queue/pause HTTP/1.1\r\nHost: " + host() +
          "\r\nConnection: close\r\nX-Memlab-Token: " + server_->token() + "\r\n\r\n");
  EXPECT_NE(reply.find("400"), std::string::npos) << reply.substr(0, 200);
  EXPECT_NE(reply.find(R"("parameter":"Content-Length")"), std::string::npos)
      << reply.substr(0, 400);
}

TEST_F(ServerTest, UnknownRoutesAndMethodsAreJson) {
  auto r = client().Get("/api/nope");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 404);
  EXPECT_EQ(body(r)["parameter"], "path");
  r = client().Delete("/api/runs/x");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 405);
  EXPECT_EQ(body(r)["parameter"], "method");
  r = client().Post("/api/nope", with_token(), "{}", "application/json");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 404);
}

TEST_F(ServerTest, ExerciseCheckNeedsTokenAndBoundedSource) {
  auto r = client().Post("/api/exercises/x/check", R"({"source":""})", "application/json");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 401);
  const std::string big = R"({"source":")" + std::string(65 * 1024, 'a') + "\"}";
  r = client().Post("/api/exercises/x/check", with_token(), big, "application/json");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 413);
  EXPECT_EQ(body(r)["parameter"], "source");
}

TEST_F(ServerTest, GarbageAndSilentClientsDoNotStopTheServer) {
  static const char hello[] = "\x16\x03\x01\x02\x00garbage\r\n\r\n";  // a TLS hello, then noise
  raw(std::string(hello, sizeof hello - 1));  // 16 bytes, the NUL inside included
  raw("GET / HTTP/1.1\r\nHost: " + host() + "\r\nContent-Length: -5\r\n\r\n");
  raw("GET /" + std::string(20000, 'a') + " HTTP/1.1\r\n\r\n");
  raw("POST /api/runs HTTP/1.1\r\nHost: " + host() +
      "\r\nTransfer-Encoding: chunked\r\n\r\nzzzz\r\n");
  // Four silent connections (as many as worker threads): they time out, others still get through.
  std::vector<std::thread> silent;
  for (int i = 0; i < 4; ++i) silent.emplace_back([] { raw("", false); });
  auto r = client().Get("/api/info");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  for (auto& t : silent) t.join();
  r = client().Get("/api/list");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
}

}  // namespace
}  // namespace memlab::server::testing
