// The server's guards as pure functions: token comparison, Host and Origin checks.
#include <gtest/gtest.h>

#include "security.hpp"

namespace memlab::server {
namespace {

TEST(ServerSecurity, RandomTokenIs64HexDigitsAndDiffers) {
  const std::string a = random_token(), b = random_token();
  EXPECT_EQ(a.size(), 64u);
  EXPECT_EQ(a.find_first_not_of("0123456789abcdef"), std::string::npos);
  EXPECT_NE(a, b);
}

TEST(ServerSecurity, TokensEqualOnlyForTheSameString) {
  EXPECT_TRUE(tokens_equal("abcdef0123456789", "abcdef0123456789"));
  EXPECT_FALSE(tokens_equal("abcdef0123456789", "abcdef012345678"));
  EXPECT_FALSE(tokens_equal("abcdef0123456789", "abcdef01234567890"));
  EXPECT_FALSE(tokens_equal("abcdef0123456789", "bbcdef0123456789"));
  EXPECT_FALSE(tokens_equal("abcdef0123456789", ""));
  EXPECT_FALSE(tokens_equal("", ""));  // no token configured never matches
}

TEST(ServerSecurity, LoopbackHosts) {
  for (const char* h : {"127.0.0.1", "127.1.2.3", "localhost", "::1", "[::1]"}) {
    EXPECT_TRUE(is_loopback_host(h)) << h;
  }
  for (const char* h : {"0.0.0.0", "::", "10.0.0.1", "127.0.0.1.evil.com", "localhost.evil.com",
                        "127.0.0", "example.com"}) {
    EXPECT_FALSE(is_loopback_host(h)) << h;
  }
}

TEST(ServerSecurity, HostHeaderMustNameThisServer) {
  EXPECT_TRUE(host_allowed("127.0.0.1:8080", "127.0.0.1", 8080));
  EXPECT_TRUE(host_allowed("localhost:8080", "127.0.0.1", 8080));
  EXPECT_TRUE(host_allowed("[::1]:8080", "127.0.0.1", 8080));
  EXPECT_TRUE(host_allowed("localhost", "127.0.0.1", 80));
  EXPECT_FALSE(host_allowed("localhost", "127.0.0.1", 8080));  // port missing
  EXPECT_FALSE(host_allowed("127.0.0.1:8081", "127.0.0.1", 8080));
  EXPECT_FALSE(host_allowed("evil.example:8080", "127.0.0.1", 8080));  // DNS rebinding
  EXPECT_FALSE(host_allowed("127.0.0.1.evil.example:8080", "127.0.0.1", 8080));
  EXPECT_FALSE(host_allowed("", "127.0.0.1", 8080));
  EXPECT_FALSE(host_allowed("127.0.0.1:8080:8080", "127.0.0.1", 8080));
  EXPECT_TRUE(host_allowed("10.0.0.5:9000", "10.0.0.5", 9000));
  EXPECT_FALSE(host_allowed("localhost:9000", "10.0.0.5", 9000));  // not a loopback server
}

TEST(ServerSecurity, OriginMustBeThisServer) {
  EXPECT_TRUE(origin_allowed("http://127.0.0.1:8080", "127.0.0.1", 8080));
  EXPECT_TRUE(origin_allowed("http://localhost:8080", "127.0.0.1", 8080));
  EXPECT_FALSE(origin_allowed("https://127.0.0.1:8080", "127.0.0.1", 8080));
  EXPECT_FALSE(origin_allowed("http://evil.example", "127.0.0.1", 8080));
  EXPECT_FALSE(origin_allowed("null", "127.0.0.1", 8080));
  EXPECT_FALSE(origin_allowed("http://127.0.0.1:8080/", "127.0.0.1", 8080));
}

}  // namespace
}  // namespace memlab::server
