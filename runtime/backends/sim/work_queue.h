// runtime/backends/sim/work_queue.h: the FIFO between a sim stream's producers
// and its one worker thread, with node recycling.
//
// Why: a mutex + std::deque hand-off made the caller and the worker meet on the
// same lock and, worse, on glibc's arena lock: every item was allocated on the
// caller and freed on the worker (deque chunks, launch region vectors, the
// KernelLaunch), so the worker's frees and the caller's mallocs contended and
// both slept on futexes (perf: ~2000 caller and ~4000 worker context switches
// per 100k tiny launches). Here the consumer never takes a lock, and nodes (with
// the heap buffers their values own) go back to the producers, which reuse them.
//
// Structure: a singly linked list with a stub node. head_ (consumer only) is
// the last consumed node; front() is head_->next. Producers append behind
// tail_ under producer_mu_, a spin lock that only producers take (any number of
// threads may submit; a single producer never waits on it). Serializing the
// producers keeps the list order and the pushed() count in step, so the n-th
// push is the n-th item the consumer sees (marks stay exact).
//
// Invariants:
//   - FIFO: the consumer sees nodes in push order; pushed() counts pushes and
//     is bumped after the node is linked (acquire-loading pushed() == k means
//     the first k nodes are reachable from head_).
//   - The consumer pops a node only after front() returned it; the popped
//     stub is retired (pushed onto retired_, a lock-free stack with one pusher,
//     the consumer, and takers that take the whole stack with exchange: no ABA).
//   - tail_ is never retired (it is the newest node, at or after head_).
//   - A node's value is written by a producer before it is linked and by the
//     consumer between front() and retirement; producers overwrite recycled
//     values (so what a value still owns is released on the producer's thread).
//   - At most about kMaxSpare nodes are cached: with a deeper backlog the
//     consumer deletes popped stubs instead of retiring them.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <new>

#include "memory/spin_mutex.h"

namespace npurt::sim {

template <class T>
class WorkQueue {
 public:
  struct Node {
    std::atomic<Node*> next{nullptr};
    T value{};
  };
  static constexpr uint64_t kMaxSpare = 256;

  WorkQueue() : head_(new Node), tail_(head_) {}
  WorkQueue(const WorkQueue&) = delete;
  WorkQueue& operator=(const WorkQueue&) = delete;
  ~WorkQueue() {  // no producer or consumer may be active
    delete_chain(head_);
    delete_chain(retired_.exchange(nullptr, std::memory_order_acquire));
    delete_chain(spare_);
  }

  // ---- producers (any thread) ----
  // A node to fill: recycled (its value holds what the last item left) or new.
  Node* acquire() {
    Node* n;
    {
      std::lock_guard<SpinMutex> lk(producer_mu_);
      if (!spare_) spare_ = retired_.exchange(nullptr, std::memory_order_acquire);
      n = spare_;
      if (n) spare_ = n->next.load(std::memory_order_relaxed);
    }
    return n ? n : new Node;
  }
  // Returns an acquired node that will not be pushed (its value stays as is).
  void give_back(Node* n) {
    std::lock_guard<SpinMutex> lk(producer_mu_);
    n->next.store(spare_, std::memory_order_relaxed);
    spare_ = n;
  }
  // Appends n; returns the push count including n (its 1-based position).
  uint64_t push(Node* n) {
    n->next.store(nullptr, std::memory_order_relaxed);
    std::lock_guard<SpinMutex> lk(producer_mu_);
    tail_->next.store(n, std::memory_order_release);
    tail_ = n;
    // seq_cst: the stream's park protocol pairs this with the worker's
    // store of its parked flag (a Dekker handshake, see sim_stream.cc).
    return pushed_.fetch_add(1, std::memory_order_seq_cst) + 1;
  }
  uint64_t pushed(std::memory_order order = std::memory_order_acquire) const { return pushed_.load(order); }

  // ---- the consumer (one thread) ----
  // The oldest unconsumed node, or nullptr when the queue is (momentarily) empty.
  Node* front() const { return head_->next.load(std::memory_order_acquire); }
  // Consumes front() (which must be non-null): it becomes the stub, and the
  // previous stub goes back to the producers. `backlog`: items still queued.
  void pop(uint64_t backlog) {
    Node* old = head_;
    head_ = old->next.load(std::memory_order_relaxed);
    if (backlog > kMaxSpare) {
      delete old;  // the queued nodes behind will refill the cache
      return;
    }
    Node* top = retired_.load(std::memory_order_relaxed);
    do {
      old->next.store(top, std::memory_order_relaxed);
    } while (!retired_.compare_exchange_weak(top, old, std::memory_order_release, std::memory_order_relaxed));
  }

 private:
  static void delete_chain(Node* n) {
    while (n) {
      Node* next = n->next.load(std::memory_order_relaxed);
      delete n;
      n = next;
    }
  }

  // Separate cache lines: the consumer's, the producers', and the two shared words.
  alignas(64) Node* head_;
  alignas(64) SpinMutex producer_mu_;
  Node* tail_;            // guarded by producer_mu_
  Node* spare_ = nullptr;  // guarded by producer_mu_: recycled nodes, linked by next
  alignas(64) std::atomic<uint64_t> pushed_{0};
  alignas(64) std::atomic<Node*> retired_{nullptr};
};

}  // namespace npurt::sim
