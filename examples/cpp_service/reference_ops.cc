// examples/cpp_service/reference_ops.cc: see reference_ops.h.
#include "reference_ops.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

int64_t HostTensor::numel() const {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

double attr_or(const std::vector<StageAttr>& attrs, const std::string& name, double fallback) {
  for (const StageAttr& a : attrs)
    if (a.name == name) return a.value;
  return fallback;
}

namespace {

const HostTensor& need(const std::vector<const HostTensor*>& in, size_t i, const char* op,
                       const char* arg, size_t min_rank) {
  if (i >= in.size() || !in[i]) throw std::invalid_argument(std::string(op) + ": argument '" + arg + "' is missing");
  if (in[i]->shape.size() < min_rank)
    throw std::invalid_argument(std::string(op) + ": argument '" + arg + "' needs rank >= " +
                                std::to_string(min_rank));
  return *in[i];
}

const HostTensor* optional(const std::vector<const HostTensor*>& in, size_t i, int64_t len,
                           const char* op, const char* arg) {
  if (i >= in.size() || !in[i]) return nullptr;
  if (in[i]->shape.size() != 1 || in[i]->shape[0] != len)
    throw std::invalid_argument(std::string(op) + ": argument '" + arg + "' must be [" +
                                std::to_string(len) + "]");
  return in[i];
}

}  // namespace

HostTensor reference_layer_norm(const std::vector<const HostTensor*>& in,
                                const std::vector<StageAttr>& attrs) {
  const HostTensor& x = need(in, 0, "layer_norm", "x", 1);
  const int64_t d = x.dim(-1), rows = x.numel() / d;
  const HostTensor* gamma = optional(in, 1, d, "layer_norm", "gamma");
  const HostTensor* beta = optional(in, 2, d, "layer_norm", "beta");
  const double eps = attr_or(attrs, "eps", 1e-5);
  HostTensor y{x.shape, std::vector<double>(x.data.size())};
  for (int64_t r = 0; r < rows; ++r) {
    const double* xr = &x.data[static_cast<size_t>(r * d)];
    double mean = 0, var = 0;
    for (int64_t j = 0; j < d; ++j) mean += xr[j];
    mean /= static_cast<double>(d);
    for (int64_t j = 0; j < d; ++j) var += (xr[j] - mean) * (xr[j] - mean);
    const double rstd = 1.0 / std::sqrt(var / static_cast<double>(d) + eps);  // biased variance
    for (int64_t j = 0; j < d; ++j) {
      double v = (xr[j] - mean) * rstd;
      if (gamma) v *= gamma->data[static_cast<size_t>(j)];
      if (beta) v += beta->data[static_cast<size_t>(j)];
      y.data[static_cast<size_t>(r * d + j)] = v;
    }
  }
  return y;
}

HostTensor reference_attention(const std::vector<const HostTensor*>& in,
                               const std::vector<StageAttr>& attrs) {
  const HostTensor& q = need(in, 0, "attention", "q", 2);
  const HostTensor& k = need(in, 1, "attention", "k", 2);
  const HostTensor& v = need(in, 2, "attention", "v", 2);
  if (in.size() > 3 && in[3]) throw std::invalid_argument("attention: the reference takes no attn_mask");
  const int64_t s = q.dim(-2), d = q.dim(-1), t = k.dim(-2), dv = v.dim(-1);
  const int64_t batch = q.numel() / (s * d);
  if (k.dim(-1) != d || v.dim(-2) != t || k.numel() / (t * d) != batch || v.numel() / (t * dv) != batch)
    throw std::invalid_argument("attention: q, k, v shapes do not match");
  double scale = attr_or(attrs, "scale", 0.0);
  if (scale == 0.0) scale = 1.0 / std::sqrt(static_cast<double>(d));
  const bool causal = attr_or(attrs, "causal", 0.0) != 0.0;
  HostTensor out{q.shape, std::vector<double>(static_cast<size_t>(batch * s * dv))};
  out.shape.back() = dv;
  std::vector<double> p(static_cast<size_t>(t));
  for (int64_t b = 0; b < batch; ++b) {
    const double* qb = &q.data[static_cast<size_t>(b * s * d)];
    const double* kb = &k.data[static_cast<size_t>(b * t * d)];
    const double* vb = &v.data[static_cast<size_t>(b * t * dv)];
    for (int64_t i = 0; i < s; ++i) {
      double mx = -std::numeric_limits<double>::infinity(), sum = 0;
      for (int64_t j = 0; j < t; ++j) {
        double dot = 0;
        for (int64_t c = 0; c < d; ++c) dot += qb[i * d + c] * kb[j * d + c];
        p[j] = causal && j > i ? -std::numeric_limits<double>::infinity() : dot * scale;
        mx = std::max(mx, p[j]);
      }
      for (int64_t j = 0; j < t; ++j) sum += p[j] = std::exp(p[j] - mx);
      double* o = &out.data[static_cast<size_t>((b * s + i) * dv)];
      for (int64_t j = 0; j < t; ++j)
        for (int64_t c = 0; c < dv; ++c) o[c] += p[j] / sum * vb[j * dv + c];
    }
  }
  return out;
}

HostTensor reference_matmul(const std::vector<const HostTensor*>& in,
                            const std::vector<StageAttr>& attrs) {
  const HostTensor& a = need(in, 0, "matmul", "a", 2);
  const HostTensor& b = need(in, 1, "matmul", "b", 2);
  if (b.shape.size() != 2) throw std::invalid_argument("matmul: the reference takes a 2-D b");
  const bool trans_b = attr_or(attrs, "trans_b", 0.0) != 0.0;
  const int64_t m_total = a.numel() / a.dim(-1), k = a.dim(-1);
  const int64_t n = trans_b ? b.dim(0) : b.dim(1);
  if ((trans_b ? b.dim(1) : b.dim(0)) != k) throw std::invalid_argument("matmul: inner dimensions differ");
  HostTensor y{a.shape, std::vector<double>(static_cast<size_t>(m_total * n))};
  y.shape.back() = n;
  for (int64_t i = 0; i < m_total; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double acc = 0;
      for (int64_t c = 0; c < k; ++c)
        acc += a.data[static_cast<size_t>(i * k + c)] *
               b.data[static_cast<size_t>(trans_b ? j * k + c : c * n + j)];
      y.data[static_cast<size_t>(i * n + j)] = acc;
    }
  return y;
}
