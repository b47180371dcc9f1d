/* examples/c_api/main.c: a plain C program that embeds npurt through the C API
 * only (npurt/npurt.h): a stream, device tensors from the pool, host copies and
 * the two-phase op call (infer the output, get the workspace size and an
 * executor, launch), checked against a scalar reference. Also shows how errors
 * come back: a status code plus a message naming function, argument, reason.
 * Then a stream graph: the same call captured once, replayed, and replayed
 * with its input and output rebound to other tensors (C API 0.2).
 *
 *   cc main.c -I<prefix>/include -L<prefix>/lib -lnpurt -o c_api_example
 *   (or CMake: find_package(npurt) + target_link_libraries(... npurt::npurt))
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "npurt/npurt.h"

#define CHECK(call)                                                              \
  do {                                                                           \
    npurtStatus st_ = (call);                                                    \
    if (st_ != NPURT_SUCCESS) {                                                  \
      fprintf(stderr, "%s:%d: %s failed: %s: %s\n", __FILE__, __LINE__, #call,   \
              npurtStatusName(st_), npurtGetLastErrorMessage());                 \
      return 1;                                                                  \
    }                                                                            \
  } while (0)

static npurtStatus make_tensor(npurtStream s, npurtDataType dtype, int32_t ndim,
                               const int64_t* shape, npurtTensor* t) {
  npurtTensorDesc d;
  memset(&d, 0, sizeof d);
  d.struct_size = sizeof d;
  d.dtype = dtype;
  d.ndim = ndim;
  d.shape = shape;
  return npurtTensorCreate(&d, s, t);
}

/* z = x + y with the built-in "add" op, through the two-phase API. */
static int run_add(npurtStream s, const float* a, const float* b, float* out,
                   int32_t ndim, const int64_t* shape, size_t n) {
  npurtTensor x = NULL, y = NULL, z = NULL, ws_tensor = NULL;
  CHECK(make_tensor(s, NPURT_FLOAT32, ndim, shape, &x));
  CHECK(make_tensor(s, NPURT_FLOAT32, ndim, shape, &y));
  CHECK(npurtTensorCopyFromHost(x, a, n * sizeof(float), s));
  CHECK(npurtTensorCopyFromHost(y, b, n * sizeof(float), s));

  npurtTensor inputs[2] = {x, y};
  npurtDataType out_dtype;
  int32_t out_ndim = 0;
  int64_t out_shape[8];
  CHECK(npurtOpInferOutput("add", inputs, 2, NULL, 0, 0, &out_dtype, &out_ndim, out_shape, 8));
  CHECK(make_tensor(s, out_dtype, out_ndim, out_shape, &z));

  uint64_t ws_size = 0;
  npurtOpExecutor ex = NULL;
  CHECK(npurtOpGetWorkspaceSize("add", inputs, 2, NULL, 0, &z, 1, &ws_size, &ex));
  void* ws = NULL;
  if (ws_size > 0) { /* the workspace is device memory: take it from the pool */
    int64_t ws_shape[1] = {(int64_t)ws_size};
    uint64_t ws_bytes = 0;
    CHECK(make_tensor(s, NPURT_UINT8, 1, ws_shape, &ws_tensor));
    CHECK(npurtTensorGetDataPtr(ws_tensor, &ws, &ws_bytes));
  }
  CHECK(npurtOpLaunch(ws, ws_size, ex, s)); /* consumes ex */
  CHECK(npurtTensorCopyToHost(z, out, n * sizeof(float), s)); /* waits for the data */
  /* Destroying tensors with queued work is safe: the pool orders the frees. */
  npurtTensorDestroy(ws_tensor);
  npurtTensorDestroy(x);
  npurtTensorDestroy(y);
  npurtTensorDestroy(z);
  return 0;
}

/* Captures z = x + y on s, replays it, then replays it on (x2, y, z2) by
 * rebinding slots; checks both results. */
static int run_graph(npurtStream s, const float* a, const float* b, int32_t ndim,
                     const int64_t* shape, size_t n) {
  size_t bytes = n * sizeof(float), nodes = 0, dot_len = 0;
  npurtTensor x, y, z, x2, z2;
  float* out = malloc(bytes);
  if (!out) return 1;
  CHECK(make_tensor(s, NPURT_FLOAT32, ndim, shape, &x));
  CHECK(make_tensor(s, NPURT_FLOAT32, ndim, shape, &y));
  CHECK(make_tensor(s, NPURT_FLOAT32, ndim, shape, &z));
  CHECK(make_tensor(s, NPURT_FLOAT32, ndim, shape, &x2));
  CHECK(make_tensor(s, NPURT_FLOAT32, ndim, shape, &z2));
  CHECK(npurtTensorCopyFromHost(x, a, bytes, s));
  CHECK(npurtTensorCopyFromHost(y, b, bytes, s));
  CHECK(npurtTensorCopyFromHost(x2, b, bytes, s)); /* x2 = b: z2 should be b + b */

  npurtGraph g = NULL;
  npurtTensor inputs[2] = {x, y};
  uint64_t ws_size = 0;
  npurtOpExecutor ex = NULL;
  CHECK(npurtStreamBeginCapture(s, NULL)); /* from here on, work is recorded */
  CHECK(npurtOpGetWorkspaceSize("add", inputs, 2, NULL, 0, &z, 1, &ws_size, &ex));
  CHECK(npurtOpLaunch(NULL, ws_size, ex, s)); /* "add" needs no op workspace */
  CHECK(npurtStreamEndCapture(s, &g));        /* validated and instantiated */
  CHECK(npurtGraphGetNodeCount(g, &nodes));
  CHECK(npurtGraphDump(g, NPURT_GRAPH_DUMP_DOT, NULL, 0, &dot_len));
  printf("graph: %zu node(s), DOT dump of %zu bytes\n", nodes, dot_len);

  CHECK(npurtGraphReplay(g, NULL, 0, s));
  CHECK(npurtTensorCopyToHost(z, out, bytes, s));
  size_t bad = 0;
  for (size_t i = 0; i < n; ++i) bad += out[i] != a[i] + b[i];

  uint32_t x_slot, z_slot;
  CHECK(npurtGraphAddBinding(g, x, &x_slot));
  CHECK(npurtGraphAddBinding(g, z, &z_slot));
  npurtGraphBinding binds[2] = {{sizeof(npurtGraphBinding), x_slot, x2},
                                {sizeof(npurtGraphBinding), z_slot, z2}};
  CHECK(npurtGraphReplay(g, binds, 2, s));
  CHECK(npurtTensorCopyToHost(z2, out, bytes, s));
  for (size_t i = 0; i < n; ++i) bad += out[i] != b[i] + b[i];
  printf("graph replays (plain and rebound): %zu mismatches\n", bad);

  CHECK(npurtGraphDestroy(g));
  npurtTensorDestroy(x);
  npurtTensorDestroy(y);
  npurtTensorDestroy(z);
  npurtTensorDestroy(x2);
  npurtTensorDestroy(z2);
  free(out);
  return bad == 0 ? 0 : 1;
}

int main(void) {
  npurtVersion v;
  memset(&v, 0, sizeof v);
  v.struct_size = sizeof v;
  CHECK(npurtGetVersion(&v));
  printf("npurt %d.%d.%d, C API %d.%d\n", v.major, v.minor, v.patch, v.c_api_major, v.c_api_minor);

  npurtStream s = NULL;
  CHECK(npurtStreamCreate("sim:0", &s));

  const int64_t shape[2] = {3, 333}; /* odd sizes: the tiling's tail path */
  const size_t n = 3 * 333;
  float* a = malloc(n * sizeof(float));
  float* b = malloc(n * sizeof(float));
  float* z = malloc(n * sizeof(float));
  if (!a || !b || !z) return 1;
  for (size_t i = 0; i < n; ++i) {
    a[i] = (float)i * 0.5f - 7.0f;
    b[i] = 1.0f / (float)(i + 1);
  }
  if (run_add(s, a, b, z, 2, shape, n) != 0) return 1;
  size_t bad = 0;
  for (size_t i = 0; i < n; ++i) bad += z[i] != a[i] + b[i]; /* one float add: exact */
  printf("add of %zu float32 elements: %zu mismatches\n", n, bad);

  if (run_graph(s, a, b, 2, shape, n) != 0) bad++;

  /* Errors are values: an unknown op is NOT_FOUND with a message, not a crash. */
  npurtOpExecutor ex = NULL;
  uint64_t ws = 0;
  npurtStatus st = npurtOpGetWorkspaceSize("no_such_op", NULL, 0, NULL, 0, NULL, 0, &ws, &ex);
  printf("unknown op -> %s: %s\n", npurtStatusName(st), npurtGetLastErrorMessage());
  if (st != NPURT_ERROR_NOT_FOUND) bad++;

  CHECK(npurtStreamSynchronize(s));
  CHECK(npurtStreamDestroy(s));
  free(a);
  free(b);
  free(z);
  return bad == 0 ? 0 : 1;
}
