#include "memlab/report/significance.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>

namespace memlab::report {
namespace {

// Regularised incomplete beta I_x(a, b) by its continued fraction (Lentz's method).
double beta_continued_fraction(double a, double b, double x) {
  constexpr double kTiny = 1e-300;
  constexpr double kEps = 1e-15;
  double c = 1.0;
  double d = 1.0 - (a + b) * x / (a + 1.0);
  if (std::fabs(d) < kTiny) d = kTiny;
  d = 1.0 / d;
  double h = d;
  for (int m = 1; m <= 500; ++m) {
    const double m2 = 2.0 * m;
    double aa = m * (b - m) * x / ((a + m2 - 1.0) * (a + m2));
    d = 1.0 + aa * d;
    if (std::fabs(d) < kTiny) d = kTiny;
    c = 1.0 + aa / c;
    if (std::fabs(c) < kTiny) c = kTiny;
    d = 1.0 / d;
    h *= d * c;
    aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1.0));
    d = 1.0 + aa * d;
    if (std::fabs(d) < kTiny) d = kTiny;
    c = 1.0 + aa / c;
    if (std::fabs(c) < kTiny) c = kTiny;
    d = 1.0 / d;
    const double del = d * c;
    h *= del;
    if (std::fabs(del - 1.0) < kEps) break;
  }
  return h;
}

double incomplete_beta(double a, double b, double x) {
  if (x <= 0.0) return 0.0;
  if (x >= 1.0) return 1.0;
  const double front = std::exp(std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) +
                                a * std::log(x) + b * std::log1p(-x));
  if (x < (a + 1.0) / (a + b + 2.0)) return front * beta_continued_fraction(a, b, x) / a;
  return 1.0 - front * beta_continued_fraction(b, a, 1.0 - x) / b;
}

double normal_two_sided(double z) {
  return std::erfc(std::fabs(z) / std::sqrt(2.0));
}

}  // namespace

double student_t_cdf(double t, double df) {
  if (std::isnan(t) || !(df > 0)) return std::numeric_limits<double>::quiet_NaN();
  if (std::isinf(t)) return t > 0 ? 1.0 : 0.0;
  const double x = df / (df + t * t);
  const double tail = 0.5 * incomplete_beta(0.5 * df, 0.5, x);  // P(T > |t|)
  return t > 0 ? 1.0 - tail : tail;
}

double mann_whitney_p(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.empty() || b.empty()) throw std::invalid_argument("mann_whitney_p: empty sample");
  const double n1 = static_cast<double>(a.size());
  const double n2 = static_cast<double>(b.size());
  std::vector<std::pair<double, int>> all;
  all.reserve(a.size() + b.size());
  for (double x : a) all.emplace_back(x, 0);
  for (double x : b) all.emplace_back(x, 1);
  std::sort(all.begin(), all.end());
  // Average ranks over ties; sum of t^3 - t for the tie correction.
  double rank_sum_a = 0, ties = 0;
  for (std::size_t i = 0; i < all.size();) {
    std::size_t j = i;
    while (j < all.size() && all[j].first == all[i].first) ++j;
    const double rank = 0.5 * static_cast<double>(i + 1 + j);  // mean of ranks i+1 .. j
    for (std::size_t k = i; k < j; ++k) {
      if (all[k].second == 0) rank_sum_a += rank;
    }
    const double t = static_cast<double>(j - i);
    ties += t * t * t - t;
    i = j;
  }
  const double u = rank_sum_a - n1 * (n1 + 1) / 2;
  const double mean = n1 * n2 / 2;
  const double n = n1 + n2;
  const double var = n1 * n2 / 12 * ((n + 1) - ties / (n * (n - 1)));
  if (!(var > 0)) return u == mean ? 1.0 : 0.0;
  const double diff = std::fabs(u - mean);
  if (diff <= 0.5) return 1.0;
  return std::min(1.0, normal_two_sided((diff - 0.5) / std::sqrt(var)));
}

double welch_p(std::size_t n1, double mean1, double sd1, std::size_t n2, double mean2, double sd2) {
  if (n1 < 2 || n2 < 2) throw std::invalid_argument("welch_p: fewer than 2 samples");
  const double v1 = sd1 * sd1 / static_cast<double>(n1);
  const double v2 = sd2 * sd2 / static_cast<double>(n2);
  const double se2 = v1 + v2;
  if (!(se2 > 0)) return mean1 == mean2 ? 1.0 : 0.0;
  const double t = (mean2 - mean1) / std::sqrt(se2);
  const double df =
      se2 * se2 / (v1 * v1 / static_cast<double>(n1 - 1) + v2 * v2 / static_cast<double>(n2 - 1));
  const double tail = student_t_cdf(-std::fabs(t), df);
  return std::min(1.0, 2.0 * tail);
}

}  // namespace memlab::report
