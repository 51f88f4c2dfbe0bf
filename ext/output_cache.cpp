// The output allocation of the fused CPU kernels: big outputs from a cache of freed blocks.
#include "cpu_kernels.h"

#include <ATen/EmptyTensor.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif
#include <atomic>
#include <mutex>
#include <unordered_map>

// ------------------------------------------------------------ big outputs: a cache of freed blocks
// glibc serves every allocation of 32 MiB or more (and smaller ones, until its threshold adapts) with a fresh mmap,
// which the kernel faults in and zeroes page by page on first touch: for a [4096, 4096] fp32 output that costs
// ~5x the kernel itself, and the grad buffers of a backward pay it again.  Outputs of 1 MiB and more therefore come
// from a small cache of freed blocks, as GPU caching allocators (and Paddle's own CPU allocator) do: when torch
// frees such a tensor its block goes back to the cache, and the next output of that rounded size reuses pages
// already mapped.  The cache holds at most `limit` bytes of free blocks (PADDLE_ON_TORCH_KERNEL_CACHE_MB, default
// 512; 0 turns it off); empty_cache() gives them back.  Blocks are 2 MiB aligned and ask for transparent huge
// pages, so even a first touch costs 2 MiB faults instead of 4 KiB ones.
namespace {
constexpr size_t kHuge = size_t(2) << 20, kMinCached = size_t(1) << 20;

struct BlockCache {
  std::mutex mu;
  std::unordered_multimap<size_t, void*> blocks;  // rounded size -> free block
  size_t cached = 0;
  std::atomic<size_t> limit{0};
  BlockCache() {
    const char* e = std::getenv("PADDLE_ON_TORCH_KERNEL_CACHE_MB");
    limit = (e && *e ? size_t(std::max(0L, std::atol(e))) : size_t(512)) << 20;
  }
};
BlockCache& cache() { static BlockCache* c = new BlockCache(); return *c; }  // never destroyed: frees may come late

struct Block { void* p; size_t n; };

// Over the limit, other cached blocks make room for the one coming back, so sizes still in use win over sizes that
// stopped recurring (varying shapes).
void give_back(void* ctx) {
  Block* b = static_cast<Block*>(ctx);
  BlockCache& c = cache();
  {
    std::lock_guard<std::mutex> g(c.mu);
    while (c.cached + b->n > c.limit && !c.blocks.empty() && b->n <= c.limit) {
      auto it = c.blocks.begin();
      std::free(it->second);
      c.cached -= it->first;
      c.blocks.erase(it);
    }
    if (c.cached + b->n <= c.limit) {
      c.blocks.emplace(b->n, b->p);
      c.cached += b->n;
      delete b;
      return;
    }
  }
  std::free(b->p);
  delete b;
}

struct CachingAllocator final : at::Allocator {
  at::DataPtr allocate(size_t nbytes) override {
    const size_t n = (nbytes + kHuge - 1) / kHuge * kHuge;
    void* p = nullptr;
    BlockCache& c = cache();
    {
      std::lock_guard<std::mutex> g(c.mu);
      auto it = c.blocks.find(n);
      if (it != c.blocks.end()) { p = it->second; c.blocks.erase(it); c.cached -= n; }
    }
    if (!p) {
      p = std::aligned_alloc(kHuge, n);
      TORCH_CHECK(p, "paddle_on_torch kernels: out of memory allocating ", n, " bytes");
#if defined(__linux__) && defined(MADV_HUGEPAGE)
      madvise(p, n, MADV_HUGEPAGE);  // advisory: failure is harmless
#endif
    }
    return {p, new Block{p, n}, &give_back, at::Device(at::kCPU)};
  }
  void copy_data(void* dest, const void* src, std::size_t count) const override { default_copy_data(dest, src, count); }
};
CachingAllocator& caching_allocator() { static CachingAllocator* a = new CachingAllocator(); return *a; }
}  // namespace

at::Tensor cpu_empty(at::IntArrayRef sizes, const at::TensorOptions& opt) {
  return at::detail::empty_cpu(sizes, opt);
}

at::Tensor big_empty(at::IntArrayRef sizes, const at::TensorOptions& opt) {
  int64_t numel = 1;
  for (auto s : sizes) numel *= s;
  if (size_t(numel) * c10::elementSize(opt.dtype().toScalarType()) < kMinCached || cache().limit.load() == 0)
    return cpu_empty(sizes, opt);
  return at::detail::empty_generic(sizes, &caching_allocator(), c10::DispatchKeySet(c10::DispatchKey::CPU),
                                   opt.dtype().toScalarType(), c10::nullopt);
}

void empty_cache() {
  BlockCache& c = cache();
  std::lock_guard<std::mutex> g(c.mu);
  for (auto& kv : c.blocks) std::free(kv.second);
  c.blocks.clear();
  c.cached = 0;
}

// the cache's bound in bytes (PADDLE_ON_TORCH_KERNEL_CACHE_MB at start-up); returns the previous one
int64_t set_cache_limit(int64_t bytes) {
  BlockCache& c = cache();
  const size_t old = c.limit.exchange(size_t(std::max<int64_t>(0, bytes)));
  std::lock_guard<std::mutex> g(c.mu);
  while (c.cached > c.limit && !c.blocks.empty()) {
    auto it = c.blocks.begin();
    std::free(it->second);
    c.cached -= it->first;
    c.blocks.erase(it);
  }
  return int64_t(old);
}

int64_t cached_bytes() { std::lock_guard<std::mutex> g(cache().mu); return int64_t(cache().cached); }

std::string capability() {
#if defined(CPU_CAPABILITY_AVX512)
  return "AVX512";
#elif defined(CPU_CAPABILITY_AVX2)
  return "AVX2";
#else
  return "DEFAULT";
#endif
}
