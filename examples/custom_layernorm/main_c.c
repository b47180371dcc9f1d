/* examples/custom_layernorm/main_c.c: the custom LayerNorm through the
 * two-phase C API (aclnn style), checked against a reference computed here.
 *   layernorm_c path/to/libnpurt_layernorm.so   -> exit 0 when max error <= 1e-4 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "npurt/npurt.h"

#define CHECK(call)                                                                  \
  do {                                                                               \
    npurtStatus st_ = (call);                                                        \
    if (st_ != NPURT_SUCCESS) {                                                      \
      fprintf(stderr, "%s failed: %s: %s\n", #call, npurtStatusName(st_),            \
              npurtGetLastErrorMessage());                                           \
      return 1;                                                                      \
    }                                                                                \
  } while (0)

static npurtStatus make(npurtStream s, int ndim, const int64_t* shape, npurtTensor* t) {
  npurtTensorDesc d = {sizeof(npurtTensorDesc), NPURT_FLOAT32, ndim, shape};
  return npurtTensorCreate(&d, s, t);
}

int main(int argc, char** argv) {
  enum { B = 2, S = 3, D = 37 };
  const int64_t xs[3] = {B, S, D}, ps[1] = {D};
  static float x[B * S * D], gamma[D], beta[D], y[B * S * D];
  for (int i = 0; i < B * S * D; ++i) x[i] = (float)((i * 37) % 101) / 10.0f - 5.0f;
  for (int i = 0; i < D; ++i) { gamma[i] = 1.0f + 0.01f * i; beta[i] = 0.5f - 0.02f * i; }

  if (argc > 1) CHECK(npurtLoadLibrary(argv[1]));
  npurtStream s;
  CHECK(npurtStreamCreate("sim:0", &s));
  npurtTensor tx, tg, tb, ty;
  CHECK(make(s, 3, xs, &tx));
  CHECK(make(s, 1, ps, &tg));
  CHECK(make(s, 1, ps, &tb));
  CHECK(make(s, 3, xs, &ty));
  CHECK(npurtTensorCopyFromHost(tx, x, sizeof x, s));
  CHECK(npurtTensorCopyFromHost(tg, gamma, sizeof gamma, s));
  CHECK(npurtTensorCopyFromHost(tb, beta, sizeof beta, s));

  npurtAttr eps = {sizeof(npurtAttr), "eps", NPURT_ATTR_FLOAT, 0, 1e-5, NULL, NULL, 0};
  npurtTensor inputs[3] = {tx, tg, tb};
  uint64_t ws_size = 0;
  npurtOpExecutor ex;
  CHECK(npurtOpGetWorkspaceSize("layer_norm_custom", inputs, 3, &eps, 1, &ty, 1, &ws_size, &ex));
  npurtTensor ws = NULL;
  void* ws_ptr = NULL;
  if (ws_size > 0) {
    int64_t n = (int64_t)ws_size;
    npurtTensorDesc d = {sizeof(npurtTensorDesc), NPURT_UINT8, 1, &n};
    CHECK(npurtTensorCreate(&d, s, &ws));
    CHECK(npurtTensorGetDataPtr(ws, &ws_ptr, NULL));
  }
  CHECK(npurtOpLaunch(ws_ptr, ws_size, ex, s));
  CHECK(npurtTensorCopyToHost(ty, y, sizeof y, s));

  double max_err = 0;
  for (int r = 0; r < B * S; ++r) {
    double mean = 0, var = 0;
    for (int i = 0; i < D; ++i) mean += x[r * D + i];
    mean /= D;
    for (int i = 0; i < D; ++i) var += (x[r * D + i] - mean) * (x[r * D + i] - mean);
    var /= D;
    for (int i = 0; i < D; ++i) {
      double ref = (x[r * D + i] - mean) / sqrt(var + 1e-5) * gamma[i] + beta[i];
      double err = fabs(ref - y[r * D + i]);
      if (err > max_err) max_err = err;
    }
  }
  printf("layer_norm_custom via the C API: [%d, %d, %d] max abs error %.3g (workspace %llu bytes)\n", B, S, D,
         max_err, (unsigned long long)ws_size);
  npurtTensorDestroy(tx); npurtTensorDestroy(tg); npurtTensorDestroy(tb); npurtTensorDestroy(ty);
  npurtTensorDestroy(ws);
  CHECK(npurtStreamSynchronize(s));
  npurtStreamDestroy(s);
  return max_err <= 1e-4 ? 0 : 1;
}
