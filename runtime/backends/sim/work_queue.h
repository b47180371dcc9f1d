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
//     the first k nodes are reachable from the list). The consumer never reads
//     it: it polls the link behind its stub.
//   - The consumer pops a node only after front() returned it; the popped
//     stub is retired (pushed onto retired_, a lock-free stack with one pusher,
//     the consumer, and takers that take the whole stack with exchange: no ABA).
//   - tail_ is never retired (it is the newest node, at or after head_).
//   - A node's value is written by a producer before it is linked and by the
//     consumer between front() and retirement; producers overwrite recycled
//     values (so what a value still owns is released on the producer's thread).
//   - Nodes are allocated and freed by producers only. Producers keep at most
//     kMaxSpare of the retired nodes they take and free the rest, so a deep
//     backlog does not stay cached.
//   - A retired node's retired_depth is the retired stack's depth with it on
//     top (written by the consumer before the release CAS that publishes it),
//     so a producer sizes the stack it takes without walking it.
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
    // Written by the consumer when it retires the node: the retired stack's
    // depth with this node on top. A producer taking the stack reads it from the
    // top node instead of walking the chain (each link is a line the consumer's
    // core wrote: one cache miss per node, perf put ~3 % of submit there).
    uint64_t retired_depth = 0;
    T value{};
  };
  static constexpr uint64_t kMaxSpare = 256;

  // asymmetric_link: the producers' link store is a release store instead of
  // seq_cst; the owner then orders it before its next load with an asymmetric
  // fence (asymmetric_fence.h) instead of an xchg on the consumer's line.
  explicit WorkQueue(bool asymmetric_link = false)
      : head_(new Node), asymmetric_link_(asymmetric_link), tail_(head_) {}
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
      if (!spare_) take_retired();
      n = spare_;
      if (n) {
        spare_ = n->next.load(std::memory_order_relaxed);
        --spare_count_;
      }
    }
    return n ? n : new Node;
  }
  // Returns an acquired node that will not be pushed (its value stays as is).
  void give_back(Node* n) {
    std::lock_guard<SpinMutex> lk(producer_mu_);
    n->next.store(spare_, std::memory_order_relaxed);
    spare_ = n;
    ++spare_count_;
  }
  // Appends n; returns the push count including n (its 1-based position).
  // next_spare (optional) receives the node the next acquire() will most likely
  // return (null if none is cached): a hint only, for prefetching its lines; it
  // may be taken by another producer before then, so it must not be accessed.
  uint64_t push(Node* n, const Node** next_spare = nullptr) {
    n->next.store(nullptr, std::memory_order_relaxed);
    std::lock_guard<SpinMutex> lk(producer_mu_);
    // seq_cst (or release + the owner's asymmetric fence): when the consumer
    // is idle, tail_ is its head_, and this store is what it polls; the
    // stream's park protocol pairs it with the consumer's store of its parked
    // flag (a Dekker handshake, see sim_stream.cc).
    // (A constant order per branch: a runtime order argument compiles to seq_cst.)
    if (asymmetric_link_)
      tail_->next.store(n, std::memory_order_release);
    else
      tail_->next.store(n, std::memory_order_seq_cst);
    tail_ = n;
    const uint64_t count = pushed_.load(std::memory_order_relaxed) + 1;
    pushed_.store(count, std::memory_order_release);
    if (next_spare) {
      if (!spare_) take_retired();
      *next_spare = spare_;
    }
    return count;
  }
  // Pushes so far. Kept on the producers' cache line: the consumer never reads
  // it (it polls the link it is waiting on), so a producer's push and mark
  // touch no line the idle consumer is spinning on besides that link.
  uint64_t pushed() const { return pushed_.load(std::memory_order_acquire); }

  // ---- the consumer (one thread) ----
  // The oldest unconsumed node, or nullptr when the queue is (momentarily) empty.
  Node* front(std::memory_order order = std::memory_order_acquire) const { return head_->next.load(order); }
  // Consumes front() (which must be non-null): it becomes the stub, and the
  // previous stub goes back to the producers (never freed here: a node is
  // allocated by a producer, and a free on this thread would contend with the
  // producers' allocations in the C allocator).
  void pop() {
    Node* old = head_;
    head_ = old->next.load(std::memory_order_relaxed);
    Node* top = retired_.load(std::memory_order_relaxed);
    do {
      old->next.store(top, std::memory_order_relaxed);
      // top's depth was written by this thread when it retired top; if a
      // producer took the stack meanwhile, the exchange below fails and retries.
      old->retired_depth = top ? top->retired_depth + 1 : 1;
    } while (!retired_.compare_exchange_weak(top, old, std::memory_order_release, std::memory_order_relaxed));
  }

 private:
  // Moves the retired stack into spare_ (which is empty), deleting what exceeds
  // kMaxSpare. The stack's depth is read from its top node, so the usual case
  // touches one node; only a stack deeper than kMaxSpare (a drained backlog) is
  // walked, and each node of it once, so this stays O(1) per push.
  void take_retired() {
    spare_ = retired_.exchange(nullptr, std::memory_order_acquire);  // already linked by next
    if (spare_ && spare_->retired_depth <= kMaxSpare) {
      spare_count_ = spare_->retired_depth;
      return;
    }
    Node* last = nullptr;
    for (Node* n = spare_; n && spare_count_ < kMaxSpare; n = n->next.load(std::memory_order_relaxed)) {
      last = n;
      ++spare_count_;
    }
    if (!last) return;
    Node* excess = last->next.load(std::memory_order_relaxed);
    last->next.store(nullptr, std::memory_order_relaxed);
    delete_chain(excess);
  }

  static void delete_chain(Node* n) {
    while (n) {
      Node* next = n->next.load(std::memory_order_relaxed);
      delete n;
      n = next;
    }
  }

  // Separate cache lines: the consumer's, the producers', and the retire stack.
  alignas(64) Node* head_;
  const bool asymmetric_link_;  // read by producers only
  alignas(64) SpinMutex producer_mu_;
  Node* tail_;            // guarded by producer_mu_
  Node* spare_ = nullptr;  // guarded by producer_mu_: recycled nodes, linked by next
  uint64_t spare_count_ = 0;  // guarded by producer_mu_: nodes in spare_
  std::atomic<uint64_t> pushed_{0};  // written under producer_mu_
  alignas(64) std::atomic<Node*> retired_{nullptr};
};

}  // namespace npurt::sim
