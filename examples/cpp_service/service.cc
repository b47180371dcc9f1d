// examples/cpp_service/service.cc: a multi-threaded C++ service embedding npurt
// (no Python). Request threads submit batches into a bounded queue; worker
// threads, each with their own streams, run the op pipeline (stages.h:
// layer_norm -> attention -> matmul, each stage only when its op is
// registered in this build; pipeline.h) -
// half of them through the C++ API, half through the two-phase C API - and
// check every result against the host float64 reference. C++ workers double-buffer:
// batch k+1 uploads on a copy stream while batch k computes, ordered by an
// event, so copies and kernels overlap. At the end the service drains, shuts
// down, checks the pool holds no allocation any more and reports throughput.
//
//   npurt_cpp_service [--workers N] [--producers N] [--batches N] [--rows R] [--cols C]
// Exit status 0 only when every batch matched the reference and shutdown was clean.
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>
#include <thread>
#include <vector>

#include "batch_queue.h"
#include "npurt/copy.h"
#include "npurt/npurt.h"
#include "npurt/runtime.h"
#include "pipeline.h"
#include "stages.h"

namespace {

struct Options {
  int workers = 4, producers = 2;
  int64_t batches = 64, rows = 64, cols = 64;
};

struct Totals {
  std::atomic<int64_t> cpp_batches{0}, c_batches{0}, mismatches{0}, errors{0};
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string k = argv[i];
    const long long v = std::atoll(argv[i + 1]);
    if (v <= 0) throw std::invalid_argument("argument '" + k + "': must be a positive integer");
    if (k == "--workers") o.workers = static_cast<int>(v);
    else if (k == "--producers") o.producers = static_cast<int>(v);
    else if (k == "--batches") o.batches = v;
    else if (k == "--rows") o.rows = v;
    else if (k == "--cols") o.cols = v;
    else throw std::invalid_argument("unknown argument '" + k + "'");
  }
  return o;
}

// One in-flight batch of a C++ worker: its result on the device, the host
// buffer the result is copied into, and the event that says it landed.
struct Slot {
  explicit Slot(npurt::Device dev) : done(dev) {}
  Batch batch;
  npurt::Tensor y;
  std::vector<float> host;
  npurt::Event done;
  bool used = false;
};

// What every worker shares (read-only after start-up).
struct Shared {
  std::vector<Stage> stages;
  PipelineParams params;
};

void finish(Slot& s, const Shared& sh, Totals& t) {
  s.done.synchronize();  // the D2H copy of this batch has landed (or throws its error)
  t.mismatches += count_mismatches(reference_result(sh.stages, sh.params, s.batch), s.host);
  t.cpp_batches++;
  s.y = npurt::Tensor();
  s.used = false;
}

void cpp_worker(npurt::Device dev, BatchQueue<Batch>& q, const Shared& sh, Totals& t) {
  npurt::Stream copy_stream = npurt::Stream::create(dev);
  npurt::Stream compute_stream = npurt::Stream::create(dev);
  CppPipeline pipe(sh.stages, sh.params, compute_stream);
  Slot slots[2] = {Slot(dev), Slot(dev)};
  npurt::Event uploaded(dev, /*enable_timing=*/false);
  Batch b;
  for (uint64_t k = 0; q.pop(b); ++k) {
    Slot& s = slots[k % 2];
    if (s.used) finish(s, sh, t);  // frees the slot of batch k-2
    const size_t bytes = b.x.size() * sizeof(float);
    npurt::Tensor x = npurt::Tensor::empty({1, b.rows, b.cols}, npurt::DType::kFloat32, copy_stream);
    npurt::copy_from_host(x, b.x.data(), bytes, copy_stream);  // staged: b may go
    uploaded.record(copy_stream);
    compute_stream.wait_event(uploaded);  // compute waits for this upload only
    s.y = pipe.run(x, compute_stream);
    s.host.resize(b.x.size());
    npurt::copy_to_host(s.host.data(), s.y, bytes, compute_stream, /*blocking=*/false);
    s.done.record(compute_stream);
    s.batch = std::move(b);
    s.used = true;
  }
  for (Slot& s : slots)
    if (s.used) finish(s, sh, t);
  copy_stream.synchronize();
  compute_stream.synchronize();
}

void c_worker(BatchQueue<Batch>& q, const Shared& sh, Totals& t) {
  npurtStream stream = nullptr;
  if (npurtStreamCreate("sim:0", &stream) != NPURT_SUCCESS)
    throw std::runtime_error(std::string("npurtStreamCreate: ") + npurtGetLastErrorMessage());
  {
    CPipeline pipe(sh.stages, sh.params, stream);
    Batch b;
    std::vector<float> out;
    while (q.pop(b)) {
      pipe.run(b, out);
      t.mismatches += count_mismatches(reference_result(sh.stages, sh.params, b), out);
      t.c_batches++;
    }
  }
  npurtStreamSynchronize(stream);
  npurtStreamDestroy(stream);
}

// Runs `fn` and turns an exception into a counted error (a worker never takes
// the process down; the service reports and exits non-zero).
template <typename Fn>
std::thread guarded(Totals& t, const char* who, Fn fn) {
  return std::thread([&t, who, fn] {
    try {
      fn();
    } catch (const std::exception& e) {
      std::fprintf(stderr, "%s: %s\n", who, e.what());
      t.errors++;
    }
  });
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  try {
    o = parse(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "npurt_cpp_service: %s\n", e.what());
    return 2;
  }
  const npurt::Device dev = npurt::devices().at(0);
  Shared shared;
  try {
    shared.stages = active_stages();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "npurt_cpp_service: %s\n", e.what());
    return 1;
  }
  shared.params = make_params(o.rows, o.cols);
  std::string names;
  for (const Stage& s : shared.stages) names += (names.empty() ? "" : " -> ") + s.op;
  std::printf("pipeline: %s on [1, %lld, %lld] float32 batches\n", names.c_str(),
              static_cast<long long>(o.rows), static_cast<long long>(o.cols));
  BatchQueue<Batch> queue(static_cast<size_t>(2 * o.workers));
  Totals totals;
  const auto start = std::chrono::steady_clock::now();

  std::vector<std::thread> workers, producers;
  for (int w = 0; w < o.workers; ++w) {
    if (w % 2 == 0)
      workers.push_back(guarded(totals, "C++ worker", [&, dev] { cpp_worker(dev, queue, shared, totals); }));
    else
      workers.push_back(guarded(totals, "C worker", [&] { c_worker(queue, shared, totals); }));
  }
  for (int p = 0; p < o.producers; ++p) {
    producers.emplace_back([&, p] {
      for (int64_t id = p; id < o.batches; id += o.producers)
        queue.push(make_batch(static_cast<uint64_t>(id), o.rows, o.cols));
    });
  }
  for (std::thread& t : producers) t.join();
  queue.close();  // workers drain what is queued, then stop
  for (std::thread& t : workers) t.join();
  npurt::synchronize_device(dev);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  npurt::MemoryPool& pool = npurt::device_context(dev).pool();
  const int64_t live = pool.stat("allocated_bytes.all.current");
  const int64_t peak = pool.stat("allocated_bytes.all.peak");
  const int64_t done = totals.cpp_batches + totals.c_batches;
  const double elems = static_cast<double>(done) * static_cast<double>(o.rows * o.cols);
  std::printf("npurt %s service on %s: %d workers (%d C++ API, %d C API), %d request threads\n",
              npurt::version().c_str(), dev.str().c_str(), o.workers, (o.workers + 1) / 2,
              o.workers / 2, o.producers);
  std::printf("batches: %lld of %lld done (C++ API %lld, C API %lld), %lld mismatching elements, "
              "%lld worker errors\n",
              static_cast<long long>(done), static_cast<long long>(o.batches),
              static_cast<long long>(totals.cpp_batches.load()),
              static_cast<long long>(totals.c_batches.load()),
              static_cast<long long>(totals.mismatches.load()),
              static_cast<long long>(totals.errors.load()));
  std::printf("throughput: %.1f batches/s, %.1f M elements/s (%.3f s)\n", done / secs,
              elems / secs / 1e6, secs);
  std::printf("pool after shutdown: %lld bytes allocated (peak %.1f MiB)\n",
              static_cast<long long>(live), static_cast<double>(peak) / (1 << 20));
  const bool ok = done == o.batches && totals.mismatches == 0 && totals.errors == 0 && live == 0;
  std::printf("service: %s\n", ok ? "ok" : "FAILED");
  return ok ? 0 : 1;
}
