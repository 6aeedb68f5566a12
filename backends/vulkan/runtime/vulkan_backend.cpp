#include "backends/vulkan/runtime/vulkan_backend.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>

#include "backends/cpu/runtime/cpu_backend.h"
#include "backends/cpu/runtime/ops/op_util.h"
#include "backends/vulkan/runtime/ops/ops.h"
#include "backends/vulkan/runtime/plan.h"
#include "backends/vulkan/runtime/vk_context.h"
#include "runtime/core/half.h"
#include "runtime/core/log.h"
#include "runtime/core/platform.h"

namespace ember::vulkan {
namespace {

constexpr const char* kName = VulkanBackend::kName;
// Where the arena's regions start: any storage-buffer offset alignment.
constexpr uint64_t kRegionAlignment = 256;
// How long execute waits for the GPU (EMBER_VULKAN_TIMEOUT_MS overrides): a
// minute, ten on a software device (lavapipe runs ResNet-50 in tens of
// seconds on a busy 2-core machine).
constexpr uint64_t kDefaultTimeoutMs = 60000;
constexpr uint64_t kSoftwareTimeoutMs = 600000;

uint64_t align_up(uint64_t n, uint64_t a) { return (n + a - 1) / a * a; }

bool env_flag(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr && v[0] != '\0' && std::strcmp(v, "0") != 0;
}

// The CPU backend runs delegates that fall back (its own instance: the
// backend is stateless).
const cpu::CpuBackend& cpu_backend() {
  static const cpu::CpuBackend backend;
  return backend;
}

struct DeviceBuffer {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  uint64_t bytes = 0;
  void* mapped = nullptr;
  bool host_visible = false;
};

// One delegate input or output: the caller's tensor `arg` is copied to or
// from `bytes` at `offset` in the arena (and `staging` in the staging
// buffer when the arena is not mapped).
struct IoSlot {
  uint32_t arg;
  uint64_t offset;
  uint64_t staging;
  uint64_t bytes;
};

// What execute checks of each input or output value's tensor.
struct ArgCheck {
  uint32_t arg;
  DataType dtype;
  size_t numel;
};

// What the event tracer hears of each blob op (GPU timestamps around its
// dispatches).
struct OpTrace {
  const char* kind;
  uint32_t debug_handle;
  int32_t sizes[cpu::kMaxDims];
  int dim;
  uint32_t first_dispatch;  // its dispatches: [first, end)
  uint32_t end_dispatch;
};

struct Delegate {
  DelegateHandle* cpu_handle = nullptr;  // set when it fell back to the CPU backend
  Context* context = nullptr;
  uint32_t num_inputs = 0, num_outputs = 0;
  ArgCheck* checks = nullptr;
  size_t num_checks = 0;
  IoSlot* io = nullptr;  // inputs, then outputs
  size_t num_io = 0, num_io_inputs = 0;
  DeviceBuffer arena, constants, params, staging;
  bool direct_io = false;  // the arena is mapped: no staging copies
  uint64_t reserved = 0;   // device bytes counted against the budget
  VkDescriptorPool pool = VK_NULL_HANDLE;
  VkCommandPool command_pool = VK_NULL_HANDLE;
  VkCommandBuffer commands = VK_NULL_HANDLE;
  VkFence fence = VK_NULL_HANDLE;
  VkQueryPool queries = VK_NULL_HANDLE;
  uint32_t num_dispatches = 0;
  uint64_t* timestamps = nullptr;  // num_dispatches + 1, read when tracing
  OpTrace* ops = nullptr;
  uint32_t num_ops = 0;
  bool uses_status = false;
  uint64_t status_offset = 0;   // in the arena
  uint64_t status_staging = 0;  // in the staging buffer
  uint64_t timeout_ns = kDefaultTimeoutMs * 1000000ull;
  bool broken = false;  // a submission never finished: the command buffer may be pending
};

void free_buffer(Context* c, DeviceBuffer* b) {
  const VkApi& vk = c->vk();
  if (b->mapped != nullptr) vk.vkUnmapMemory(c->device(), b->memory);
  if (b->buffer != VK_NULL_HANDLE) vk.vkDestroyBuffer(c->device(), b->buffer, nullptr);
  if (b->memory != VK_NULL_HANDLE) vk.vkFreeMemory(c->device(), b->memory, nullptr);
  *b = DeviceBuffer{};
}

void destroy_delegate(Delegate* d) {
  if (d == nullptr) return;
  if (d->cpu_handle != nullptr) cpu_backend().destroy(d->cpu_handle);
  if (d->context != nullptr) {
    Context* c = d->context;
    const VkApi& vk = c->vk();
    const VkDevice dev = c->device();
    if (d->broken) vk.vkDeviceWaitIdle(dev);
    if (d->queries != VK_NULL_HANDLE) vk.vkDestroyQueryPool(dev, d->queries, nullptr);
    if (d->fence != VK_NULL_HANDLE) vk.vkDestroyFence(dev, d->fence, nullptr);
    if (d->command_pool != VK_NULL_HANDLE) vk.vkDestroyCommandPool(dev, d->command_pool, nullptr);
    if (d->pool != VK_NULL_HANDLE) vk.vkDestroyDescriptorPool(dev, d->pool, nullptr);
    for (DeviceBuffer* b : {&d->arena, &d->constants, &d->params, &d->staging}) free_buffer(c, b);
    c->unreserve(d->reserved);
    Context::release(c);
  }
  delete[] d->checks;
  delete[] d->io;
  delete[] d->timestamps;
  delete[] d->ops;
  delete d;
}

// A buffer of `bytes` in memory with `required` flags (and `preferred` ones
// where a type has both), mapped when host-visible.
Error create_buffer(Context* c, uint64_t bytes, VkBufferUsageFlags usage,
                    VkMemoryPropertyFlags required, VkMemoryPropertyFlags preferred,
                    const char* what, DeviceBuffer* out) {
  const VkApi& vk = c->vk();
  VkBufferCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
  info.size = bytes > 0 ? bytes : 16;
  info.usage = usage;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  VkResult result = vk.vkCreateBuffer(c->device(), &info, nullptr, &out->buffer);
  if (result != VK_SUCCESS) {
    out->buffer = VK_NULL_HANDLE;
    EMBER_LOG(Error, "%s: no %s buffer of %llu bytes (%s)", kName, what,
              static_cast<unsigned long long>(bytes), vk_result_name(result));
    return Error::MemoryAllocationFailed;
  }
  VkMemoryRequirements needs;
  vk.vkGetBufferMemoryRequirements(c->device(), out->buffer, &needs);
  const int type = c->memory_type(needs.memoryTypeBits, required, preferred);
  if (type < 0) {
    EMBER_LOG(Error, "%s: the device has no memory type for the %s buffer", kName, what);
    return Error::NotSupported;
  }
  VkMemoryAllocateInfo alloc{};
  alloc.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
  alloc.allocationSize = needs.size;
  alloc.memoryTypeIndex = static_cast<uint32_t>(type);
  result = vk.vkAllocateMemory(c->device(), &alloc, nullptr, &out->memory);
  if (result != VK_SUCCESS) {
    out->memory = VK_NULL_HANDLE;
    EMBER_LOG(Error, "%s: out of device memory: the %s buffer needs %llu bytes (%s)", kName, what,
              static_cast<unsigned long long>(needs.size), vk_result_name(result));
    return Error::MemoryAllocationFailed;
  }
  vk.vkBindBufferMemory(c->device(), out->buffer, out->memory, 0);
  out->bytes = info.size;
  out->host_visible = c->memory_type_has(
      type, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
  if (out->host_visible) {
    result = vk.vkMapMemory(c->device(), out->memory, 0, VK_WHOLE_SIZE, 0, &out->mapped);
    if (result != VK_SUCCESS) {
      out->mapped = nullptr;
      EMBER_LOG(Error, "%s: cannot map the %s buffer (%s)", kName, what, vk_result_name(result));
      return Error::MemoryAllocationFailed;
    }
  }
  return Error::Ok;
}

// Runs `record` in a one-time command buffer and waits for it.
template <typename Record>
Error run_once(Context* c, VkCommandPool pool, Record record) {
  const VkApi& vk = c->vk();
  VkCommandBufferAllocateInfo alloc{};
  alloc.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
  alloc.commandPool = pool;
  alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  alloc.commandBufferCount = 1;
  VkCommandBuffer cmd = VK_NULL_HANDLE;
  if (vk.vkAllocateCommandBuffers(c->device(), &alloc, &cmd) != VK_SUCCESS) return Error::Internal;
  VkCommandBufferBeginInfo begin{};
  begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  vk.vkBeginCommandBuffer(cmd, &begin);
  record(cmd);
  vk.vkEndCommandBuffer(cmd);
  VkFenceCreateInfo fence_info{};
  fence_info.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
  VkFence fence = VK_NULL_HANDLE;
  if (vk.vkCreateFence(c->device(), &fence_info, nullptr, &fence) != VK_SUCCESS) {
    return Error::Internal;
  }
  const Error err = c->submit_and_wait(cmd, fence, UINT64_MAX);
  vk.vkDestroyFence(c->device(), fence, nullptr);
  return err;
}

void barrier(const VkApi& vk, VkCommandBuffer cmd, VkPipelineStageFlags src_stage,
             VkAccessFlags src, VkPipelineStageFlags dst_stage, VkAccessFlags dst) {
  VkMemoryBarrier b{};
  b.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
  b.srcAccessMask = src;
  b.dstAccessMask = dst;
  vk.vkCmdPipelineBarrier(cmd, src_stage, dst_stage, 0, 1, &b, 0, nullptr, 0, nullptr);
}

// Places the scratch values, then each input and output, then the status
// word, in the arena; fills the IO slots and argument checks.
Error plan_arena(const cpu_fb::Graph* graph, const ValueInfo* values, size_t num_values,
                 Delegate* d, Plan* plan) {
  d->num_inputs = graph->num_inputs();
  d->num_outputs = graph->num_outputs();
  // Every argument of a delegate call is a value of its blob (an input no op
  // reads is an empty one), so a blob declaring more is malformed; the bound
  // also keeps the per-argument arrays below proportional to the blob.
  const uint64_t num_args = uint64_t{d->num_inputs} + d->num_outputs;
  EMBER_CHECK_OR_RETURN(num_args <= num_values, Error::InvalidProgram,
                        "%s: the blob declares %u inputs and %u outputs but has %zu values", kName,
                        d->num_inputs, d->num_outputs, num_values);
  // Each argument's region holds its largest value (one pass over the values).
  for (uint32_t i = 0; i < num_args; ++i) {
    if (!(i < d->num_inputs ? plan->input_bytes : plan->output_bytes).push(0)) {
      return Error::MemoryAllocationFailed;
    }
  }
  for (size_t v = 0; v < num_values; ++v) {
    const ValueInfo& info = values[v];
    if (info.kind != ValueKind::Input && info.kind != ValueKind::Output) continue;
    uint64_t& bytes = (info.kind == ValueKind::Input ? plan->input_bytes
                                                     : plan->output_bytes)[info.index];
    if (value_bytes(info) > bytes) bytes = value_bytes(info);
  }
  uint64_t cursor = align_up(graph->scratch_bytes(), kRegionAlignment);
  for (uint32_t i = 0; i < num_args; ++i) {
    const bool input = i < d->num_inputs;
    const uint32_t index = input ? i : i - d->num_inputs;
    if (!(input ? plan->input_offsets : plan->output_offsets).push(cursor)) {
      return Error::MemoryAllocationFailed;
    }
    cursor = align_up(cursor + (input ? plan->input_bytes : plan->output_bytes)[index],
                      kRegionAlignment);
  }
  plan->status_offset = cursor;
  plan->arena_bytes = cursor + kRegionAlignment;
  size_t checks = 0;
  for (size_t v = 0; v < num_values; ++v) {
    checks += values[v].kind == ValueKind::Input || values[v].kind == ValueKind::Output;
  }
  d->checks = new (std::nothrow) ArgCheck[checks > 0 ? checks : 1];
  d->io = new (std::nothrow) IoSlot[d->num_inputs + d->num_outputs + 1];
  if (d->checks == nullptr || d->io == nullptr) return Error::MemoryAllocationFailed;
  for (size_t v = 0; v < num_values; ++v) {
    const ValueInfo& info = values[v];
    if (info.kind != ValueKind::Input && info.kind != ValueKind::Output) continue;
    const uint32_t arg = info.kind == ValueKind::Input ? info.index : d->num_inputs + info.index;
    d->checks[d->num_checks++] = ArgCheck{arg, info.dtype, info.numel};
  }
  uint64_t staging = 0;
  for (uint32_t i = 0; i < d->num_inputs + d->num_outputs; ++i) {
    const bool input = i < d->num_inputs;
    const uint32_t index = input ? i : i - d->num_inputs;
    const uint64_t bytes = input ? plan->input_bytes[index] : plan->output_bytes[index];
    if (bytes == 0) continue;  // an argument no op reads or writes
    d->io[d->num_io++] = IoSlot{i, input ? plan->input_offsets[index] : plan->output_offsets[index],
                                staging, bytes};
    if (input) d->num_io_inputs = d->num_io;
    staging = align_up(staging + bytes, 16);
  }
  d->status_offset = plan->status_offset;
  d->status_staging = staging;
  d->staging.bytes = staging + 16;
  return Error::Ok;
}

// Largest binding a dispatch needs (its bytes past the aligned descriptor
// offset) must fit the device's storage-buffer range.
Error check_ranges(const Plan& plan, const DeviceInfo& info) {
  const uint64_t align = info.min_storage_offset_alignment > 0 ? info.min_storage_offset_alignment : 1;
  for (size_t i = 0; i < plan.dispatches.size(); ++i) {
    for (const BufferRef& b : plan.dispatches[i].bindings) {
      const uint64_t range = b.bytes + b.offset % align;
      if (range > info.max_storage_buffer_range) {
        EMBER_LOG(Error, "%s: op %u binds %llu bytes, more than device '%s' takes in one "
                         "storage buffer (maxStorageBufferRange %llu)",
                  kName, plan.dispatches[i].op, static_cast<unsigned long long>(range), info.name,
                  static_cast<unsigned long long>(info.max_storage_buffer_range));
        return Error::NotSupported;
      }
    }
  }
  if (plan.params.size() * 4 > info.max_storage_buffer_range) return Error::NotSupported;
  return Error::Ok;
}

const DeviceBuffer& region_buffer(const Delegate& d, Region region) {
  return region == Region::Arena ? d.arena : (region == Region::Constants ? d.constants : d.params);
}

// Writes the op parameters and the constants (packed or as they are; as
// halves, rounded to nearest even, where a job asks).
Error fill_uploads(const Plan& plan, uint8_t* params, uint8_t* constants) {
  std::memcpy(params, plan.params.data(), plan.params.size() * 4);
  for (size_t i = 0; i < plan.packs.size(); ++i) {
    const PackJob& job = plan.packs[i];
    uint8_t* dst = constants + job.offset;
    float* floats = nullptr;
    if (job.half) {
      floats = new (std::nothrow) float[job.bytes / 4 + 1];
      if (floats == nullptr) return Error::MemoryAllocationFailed;
      dst = reinterpret_cast<uint8_t*>(floats);
    }
    if (job.fn != nullptr) {
      job.fn(job, dst);
    } else {
      std::memcpy(dst, job.src, job.bytes);
    }
    if (job.half) {
      uint16_t* halves = reinterpret_cast<uint16_t*>(constants + job.offset);
      for (uint64_t e = 0; e < job.bytes / 4; ++e) halves[e] = Half::from_float(floats[e]);
      delete[] floats;
    }
  }
  return Error::Ok;
}

Error upload(Delegate* d, const Plan& plan) {
  Context* c = d->context;
  if (d->params.mapped != nullptr && d->constants.mapped != nullptr) {
    return fill_uploads(plan, static_cast<uint8_t*>(d->params.mapped),
                        static_cast<uint8_t*>(d->constants.mapped));
  }
  // Through a staging buffer, freed once the copy is done.
  const uint64_t params_bytes = align_up(plan.params.size() * 4, 256);
  DeviceBuffer staging;
  Error err = create_buffer(c, params_bytes + plan.constant_bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                            VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
                            0, "upload staging", &staging);
  if (err == Error::Ok) {
    uint8_t* base = static_cast<uint8_t*>(staging.mapped);
    err = fill_uploads(plan, base, base + params_bytes);
  }
  if (err == Error::Ok) {
    const VkApi& vk = c->vk();
    err = run_once(c, d->command_pool, [&](VkCommandBuffer cmd) {
      VkBufferCopy p{0, 0, plan.params.size() * 4};
      if (p.size > 0) vk.vkCmdCopyBuffer(cmd, staging.buffer, d->params.buffer, 1, &p);
      VkBufferCopy w{params_bytes, 0, plan.constant_bytes};
      if (w.size > 0) vk.vkCmdCopyBuffer(cmd, staging.buffer, d->constants.buffer, 1, &w);
    });
  }
  free_buffer(c, &staging);
  return err;
}

// One descriptor set per dispatch (binding 0 the parameters, then its
// tensors at aligned offsets), then the command buffer every execute replays.
Error record(Delegate* d, const Plan& plan) {
  Context* c = d->context;
  const VkApi& vk = c->vk();
  const VkDevice dev = c->device();
  const uint32_t n = d->num_dispatches;
  VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, (n > 0 ? n : 1) * (kTensorBindings + 1)};
  VkDescriptorPoolCreateInfo pool_info{};
  pool_info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO;
  pool_info.maxSets = n > 0 ? n : 1;
  pool_info.poolSizeCount = 1;
  pool_info.pPoolSizes = &size;
  if (vk.vkCreateDescriptorPool(dev, &pool_info, nullptr, &d->pool) != VK_SUCCESS) {
    d->pool = VK_NULL_HANDLE;
    return Error::MemoryAllocationFailed;
  }
  VkDescriptorSet* sets = new (std::nothrow) VkDescriptorSet[n > 0 ? n : 1];
  VkPipeline* pipelines = new (std::nothrow) VkPipeline[n > 0 ? n : 1];
  bool* barriers = new (std::nothrow) bool[n > 0 ? n : 1];
  if (sets == nullptr || pipelines == nullptr || barriers == nullptr ||
      !plan_barriers(plan.dispatches.data(), n, barriers)) {
    delete[] sets;
    delete[] pipelines;
    delete[] barriers;
    return Error::MemoryAllocationFailed;
  }
  Error err = Error::Ok;
  const uint64_t align = c->info().min_storage_offset_alignment > 0 ? c->info().min_storage_offset_alignment : 1;
  VkDescriptorSetLayout layout = c->set_layout();
  PushConstants* push = new (std::nothrow) PushConstants[n > 0 ? n : 1];
  if (push == nullptr) err = Error::MemoryAllocationFailed;
  for (uint32_t i = 0; err == Error::Ok && i < n; ++i) {
    const DispatchInfo& di = plan.dispatches[i];
    pipelines[i] = c->pipeline(di.shader);
    if (pipelines[i] == VK_NULL_HANDLE) {
      err = Error::NotSupported;
      break;
    }
    VkDescriptorSetAllocateInfo alloc{};
    alloc.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO;
    alloc.descriptorPool = d->pool;
    alloc.descriptorSetCount = 1;
    alloc.pSetLayouts = &layout;
    if (vk.vkAllocateDescriptorSets(dev, &alloc, &sets[i]) != VK_SUCCESS) {
      err = Error::MemoryAllocationFailed;
      break;
    }
    VkDescriptorBufferInfo infos[kTensorBindings + 1];
    VkWriteDescriptorSet writes[kTensorBindings + 1];
    infos[0] = VkDescriptorBufferInfo{d->params.buffer, 0, VK_WHOLE_SIZE};
    push[i].params = di.params;
    for (uint32_t b = 0; b < kTensorBindings; ++b) {
      const BufferRef& ref = di.bindings[b];
      const uint64_t start = ref.offset / align * align;
      const uint64_t range = ref.bytes + (ref.offset - start);
      infos[b + 1] = VkDescriptorBufferInfo{region_buffer(*d, ref.region).buffer, start,
                                            range >= 4 ? range : 4};
      if (ref.region == Region::Params) infos[b + 1].range = VK_WHOLE_SIZE;
      push[i].offsets[b] = static_cast<uint32_t>((ref.offset - start) / 4);
    }
    for (uint32_t b = 0; b <= kTensorBindings; ++b) {
      writes[b] = VkWriteDescriptorSet{};
      writes[b].sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
      writes[b].dstSet = sets[i];
      writes[b].dstBinding = b;
      writes[b].descriptorCount = 1;
      writes[b].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
      writes[b].pBufferInfo = &infos[b];
    }
    vk.vkUpdateDescriptorSets(dev, kTensorBindings + 1, writes, 0, nullptr);
  }
  if (err == Error::Ok) {
    VkCommandBufferAllocateInfo alloc{};
    alloc.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
    alloc.commandPool = d->command_pool;
    alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    alloc.commandBufferCount = 1;
    if (vk.vkAllocateCommandBuffers(dev, &alloc, &d->commands) != VK_SUCCESS) {
      err = Error::MemoryAllocationFailed;
    }
  }
  if (err == Error::Ok) {
    VkCommandBuffer cmd = d->commands;
    VkCommandBufferBeginInfo begin{};
    begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
    vk.vkBeginCommandBuffer(cmd, &begin);
    if (d->queries != VK_NULL_HANDLE) {
      vk.vkCmdResetQueryPool(cmd, d->queries, 0, n + 1);
      vk.vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, d->queries, 0);
    }
    const VkAccessFlags rw = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
    if (d->uses_status) {
      vk.vkCmdFillBuffer(cmd, d->arena.buffer, d->status_offset, 4, 0);
    }
    if (!d->direct_io) {
      for (size_t i = 0; i < d->num_io_inputs; ++i) {
        const IoSlot& s = d->io[i];
        VkBufferCopy copy{s.staging, s.offset, s.bytes};
        vk.vkCmdCopyBuffer(cmd, d->staging.buffer, d->arena.buffer, 1, &copy);
      }
    }
    barrier(vk, cmd, VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_HOST_BIT,
            VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_HOST_WRITE_BIT,
            VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, rw);
    VkPipeline bound = VK_NULL_HANDLE;
    for (uint32_t i = 0; i < n; ++i) {
      const DispatchInfo& di = plan.dispatches[i];
      if (barriers[i]) {
        barrier(vk, cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, rw);
      }
      if (pipelines[i] != bound) {
        vk.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipelines[i]);
        bound = pipelines[i];
      }
      vk.vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, c->pipeline_layout(), 0, 1,
                                 &sets[i], 0, nullptr);
      vk.vkCmdPushConstants(cmd, c->pipeline_layout(), VK_SHADER_STAGE_COMPUTE_BIT, 0,
                            sizeof(PushConstants), &push[i]);
      vk.vkCmdDispatch(cmd, di.groups[0], di.groups[1], di.groups[2]);
      if (d->queries != VK_NULL_HANDLE) {
        vk.vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, d->queries, i + 1);
      }
    }
    barrier(vk, cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
            VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT,
            VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_HOST_BIT,
            VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_HOST_READ_BIT);
    if (!d->direct_io) {
      for (size_t i = d->num_io_inputs; i < d->num_io; ++i) {
        const IoSlot& s = d->io[i];
        VkBufferCopy copy{s.offset, s.staging, s.bytes};
        vk.vkCmdCopyBuffer(cmd, d->arena.buffer, d->staging.buffer, 1, &copy);
      }
      if (d->uses_status) {
        VkBufferCopy copy{d->status_offset, d->status_staging, 4};
        vk.vkCmdCopyBuffer(cmd, d->arena.buffer, d->staging.buffer, 1, &copy);
      }
      barrier(vk, cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
              VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
    }
    if (vk.vkEndCommandBuffer(cmd) != VK_SUCCESS) err = Error::Internal;
  }
  delete[] push;
  delete[] sets;  // the sets live in the pool
  delete[] pipelines;
  delete[] barriers;
  return err;
}

// Per blob op, what the event tracer reports (its dispatches' span).
Error make_traces(Delegate* d, const cpu_fb::Graph* graph, const ValueInfo* values,
                  size_t num_values, const Plan& plan) {
  const auto* ops = graph->ops();
  d->num_ops = ops != nullptr ? ops->size() : 0;
  d->ops = new (std::nothrow) OpTrace[d->num_ops > 0 ? d->num_ops : 1];
  d->timestamps = new (std::nothrow) uint64_t[d->num_dispatches + 1];
  if (d->ops == nullptr || d->timestamps == nullptr) return Error::MemoryAllocationFailed;
  uint32_t next = 0;
  for (uint32_t i = 0; i < d->num_ops; ++i) {
    const cpu_fb::Op* op = ops->Get(i);
    OpTrace& t = d->ops[i];
    t.kind = cpu_fb::EnumNameOpParams(op->params_type());
    t.debug_handle = op->debug_handle();
    t.dim = 0;
    if (op->outputs() != nullptr && op->outputs()->size() > 0 &&
        op->outputs()->Get(0) < num_values) {
      const ValueInfo& out = values[op->outputs()->Get(0)];
      t.dim = out.dim;
      std::memcpy(t.sizes, out.sizes, sizeof(t.sizes));
    }
    t.first_dispatch = next;
    while (next < d->num_dispatches && plan.dispatches[next].op == i) ++next;
    t.end_dispatch = next;
  }
  return Error::Ok;
}

// The program's requests (compile specs): weights=float16 stores the
// product ops' weights as halves. Unknown keys are another version's.
Error read_compile_specs(Span<const CompileSpec> specs, Plan* plan) {
  for (const CompileSpec& spec : specs) {
    if (spec.key == nullptr || std::strcmp(spec.key, "weights") != 0) continue;
    const char* value = reinterpret_cast<const char*>(spec.value.data());
    const size_t n = spec.value.size();
    if (n == 7 && std::memcmp(value, "float16", 7) == 0) {
      plan->half_weights = true;
    } else if (!(n == 7 && std::memcmp(value, "float32", 7) == 0)) {
      EMBER_LOG(Error, "%s: compile spec weights=%.*s is neither float32 nor float16", kName,
                static_cast<int>(n < 32 ? n : 32), value);
      return Error::InvalidProgram;
    }
  }
  return Error::Ok;
}

// Everything on the device: memory, uploads, pipelines, the command buffer.
// Errors other than InvalidProgram are the device's (the CPU may run it).
Error build(Delegate* d, const cpu_fb::Graph* graph, const ValueInfo* values, size_t num_values,
            Span<const CompileSpec> specs) {
  Context* c = d->context;
  const DeviceInfo& info = c->info();
  Plan plan;
  EMBER_TRY(read_compile_specs(specs, &plan));
  for (size_t v = 0; v < num_values; ++v) {
    if (!plan.constant_refs.push(BufferRef{})) return Error::MemoryAllocationFailed;
  }
  EMBER_TRY(plan_arena(graph, values, num_values, d, &plan));
  const cpu::BuildContext build_context{values, num_values, graph};
  Encoder enc(build_context, &plan, info);
  const auto* ops = graph->ops();
  const size_t num_ops = ops != nullptr ? ops->size() : 0;
  for (size_t i = 0; i < num_ops; ++i) {
    const cpu_fb::Op* op = ops->Get(static_cast<flatbuffers::uoffset_t>(i));
    const EncodeFn encode = encoder_for(op->params_type());
    if (encode == nullptr) {
      EMBER_LOG(Error, "%s: op %zu (%s) is not one the Vulkan backend runs", kName, i,
                cpu_fb::EnumNameOpParams(op->params_type()));
      return Error::NotSupported;
    }
    if (op->activation() != nullptr && op->params_type() != cpu_fb::OpParams::Linear &&
        op->params_type() != cpu_fb::OpParams::Conv2d) {
      EMBER_LOG(Error, "%s: op %zu (%s) cannot apply a fused activation", kName, i,
                cpu_fb::EnumNameOpParams(op->params_type()));
      return Error::InvalidProgram;
    }
    if (const ValueInfo* bad = cpu::untakeable_value(build_context, op)) {
      EMBER_LOG(Error, "%s: op %zu (%s) cannot take %s values", kName, i,
                cpu_fb::EnumNameOpParams(op->params_type()),
                bad->dtype == DataType::Bool ? "bool" : "int8");
      return Error::InvalidProgram;
    }
    enc.set_op(static_cast<uint32_t>(i));
    const Error err = encode(enc, op);
    if (err != Error::Ok) {
      EMBER_LOG(Error, "%s: op %zu (%s) %s", kName, i, cpu_fb::EnumNameOpParams(op->params_type()),
                err == Error::InvalidProgram ? "is malformed" : "cannot run on this device");
      return err;
    }
  }
  d->num_dispatches = static_cast<uint32_t>(plan.dispatches.size());
  d->uses_status = plan.uses_status;
  EMBER_TRY(check_ranges(plan, info));
  EMBER_TRY(make_traces(d, graph, values, num_values, plan));

  // Memory: weights and parameters device-local, the arena too (mapped where
  // the device shares memory with the host: then inputs and outputs are
  // copied in place, with no staging buffer).
  const bool shared_memory = info.unified_memory && (info.type == VK_PHYSICAL_DEVICE_TYPE_CPU ||
                                                     info.type == VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU);
  d->direct_io = shared_memory && !env_flag("EMBER_VULKAN_STAGING");
  const uint64_t params_bytes = align_up(plan.params.size() * 4 + 4, 256);
  const uint64_t total = plan.arena_bytes + plan.constant_bytes + params_bytes +
                         (d->direct_io ? 0 : d->staging.bytes);
  uint64_t limit = 0, in_use = 0;
  if (!c->reserve(total, &limit, &in_use)) {
    EMBER_LOG(Error, "%s: out of device memory: the delegate needs %llu bytes; "
                     "EMBER_VULKAN_MAX_MEMORY allows %llu, %llu of them in use",
              kName, static_cast<unsigned long long>(total),
              static_cast<unsigned long long>(limit), static_cast<unsigned long long>(in_use));
    return Error::MemoryAllocationFailed;
  }
  d->reserved = total;
  const VkMemoryPropertyFlags host = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                     VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  const VkMemoryPropertyFlags local = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
  const VkBufferUsageFlags storage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  const VkBufferUsageFlags transfer = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  EMBER_TRY(create_buffer(c, plan.arena_bytes, storage | transfer, d->direct_io ? host : 0, local,
                          "arena", &d->arena));
  if (d->direct_io && d->arena.mapped == nullptr) return Error::NotSupported;
  EMBER_TRY(create_buffer(c, plan.constant_bytes, storage | transfer, 0,
                          shared_memory ? (local | host) : local, "weights", &d->constants));
  EMBER_TRY(create_buffer(c, params_bytes, storage | transfer, 0,
                          shared_memory ? (local | host) : local, "parameters", &d->params));
  if (!d->direct_io) {
    EMBER_TRY(create_buffer(c, d->staging.bytes, transfer, host,
                            host | VK_MEMORY_PROPERTY_HOST_CACHED_BIT, "staging", &d->staging));
  }
  const VkApi& vk = c->vk();
  VkCommandPoolCreateInfo pool_info{};
  pool_info.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
  pool_info.queueFamilyIndex = c->queue_family();
  if (vk.vkCreateCommandPool(c->device(), &pool_info, nullptr, &d->command_pool) != VK_SUCCESS) {
    d->command_pool = VK_NULL_HANDLE;
    return Error::MemoryAllocationFailed;
  }
  EMBER_TRY(upload(d, plan));
  VkFenceCreateInfo fence_info{};
  fence_info.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
  if (vk.vkCreateFence(c->device(), &fence_info, nullptr, &d->fence) != VK_SUCCESS) {
    d->fence = VK_NULL_HANDLE;
    return Error::MemoryAllocationFailed;
  }
  if (info.timestamp_period_ns > 0) {
    VkQueryPoolCreateInfo query_info{};
    query_info.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO;
    query_info.queryType = VK_QUERY_TYPE_TIMESTAMP;
    query_info.queryCount = d->num_dispatches + 1;
    if (vk.vkCreateQueryPool(c->device(), &query_info, nullptr, &d->queries) != VK_SUCCESS) {
      d->queries = VK_NULL_HANDLE;  // no per-op times, nothing else lost
    }
  }
  return record(d, plan);
}

bool falls_back(const VulkanOptions& options) {
  const char* env = std::getenv("EMBER_VULKAN_FALLBACK");
  if (env != nullptr && env[0] != '\0') return std::strcmp(env, "cpu") == 0;
  return options.fall_back_to_cpu;
}

// Reports each op with its GPU time, placed after `submitted` (host ns).
void trace(const Delegate& d, EventTracer& tracer, uint64_t submitted) {
  const VkApi& vk = d.context->vk();
  if (d.queries == VK_NULL_HANDLE) return;
  notify_driver_call(true);
  const VkResult result = vk.vkGetQueryPoolResults(
      d.context->device(), d.queries, 0, d.num_dispatches + 1,
      (d.num_dispatches + 1) * sizeof(uint64_t), d.timestamps, sizeof(uint64_t),
      VK_QUERY_RESULT_64_BIT);
  notify_driver_call(false);
  if (result != VK_SUCCESS) return;
  const double period = d.context->info().timestamp_period_ns;
  auto at = [&](uint32_t query) {
    return submitted + static_cast<uint64_t>(static_cast<double>(d.timestamps[query] - d.timestamps[0]) * period);
  };
  for (uint32_t i = 0; i < d.num_ops; ++i) {
    const OpTrace& t = d.ops[i];
    const uint64_t start = at(t.first_dispatch), end = at(t.end_dispatch);
    tracer.delegate_op(t.kind, t.debug_handle, start, end,
                       Span<const int32_t>(t.sizes, static_cast<size_t>(t.dim)));
  }
}

}  // namespace

Result<DelegateHandle*> VulkanBackend::init(BackendInitContext& context, FreeableBuffer* processed,
                                            Span<const CompileSpec> compile_specs) const {
  Result<const cpu_fb::Graph*> verified = cpu::verify_graph(*processed, kName);
  if (!verified.ok()) return verified.error();
  const cpu_fb::Graph* graph = verified.get();
  Delegate* d = new (std::nothrow) Delegate();
  EMBER_CHECK_OR_RETURN(d != nullptr, Error::MemoryAllocationFailed, "%s: no memory", kName);
  const size_t num_values = graph->values() != nullptr ? graph->values()->size() : 0;
  ValueInfo* values = new (std::nothrow) ValueInfo[num_values > 0 ? num_values : 1];
  Error err = values != nullptr ? cpu::read_value_infos(graph, values, num_values, kName)
                                : Error::MemoryAllocationFailed;
  for (size_t v = 0; err == Error::Ok && v < num_values; ++v) {
    if (values[v].dtype == DataType::Int8) {
      EMBER_LOG(Error, "%s: value %zu is int8: quantized int8 ops are not run on the GPU", kName, v);
      err = Error::NotSupported;
    }
  }
  if (err == Error::Ok) {
    Result<Context*> c = Context::acquire();
    if (c.ok()) {
      d->context = c.get();
      if (c.get()->info().type == VK_PHYSICAL_DEVICE_TYPE_CPU) {
        d->timeout_ns = kSoftwareTimeoutMs * 1000000ull;
      }
      const char* timeout = std::getenv("EMBER_VULKAN_TIMEOUT_MS");
      if (timeout != nullptr && std::atoll(timeout) > 0) {
        d->timeout_ns = static_cast<uint64_t>(std::atoll(timeout)) * 1000000ull;
      }
      err = build(d, graph, values, num_values, compile_specs);
    } else {
      err = c.error();
    }
  }
  delete[] values;
  if (err == Error::Ok) {
    processed->free();  // the weights live on the device now
    return static_cast<DelegateHandle*>(d);
  }
  destroy_delegate(d);
  if (err == Error::InvalidProgram || err == Error::DelegateInvalidCompatibility ||
      !falls_back(options_)) {
    return err;
  }
  char why[384];
  std::snprintf(why, sizeof(why), "%s", last_error_message());
  EMBER_LOG(Error, "%s; running it on the CPU backend, as the application asked "
                   "(fall_back_to_cpu)", why[0] != '\0' ? why : error_name(err));
  Result<DelegateHandle*> on_cpu = cpu_backend().init(context, processed, compile_specs);
  if (!on_cpu.ok()) return on_cpu.error();
  Delegate* wrapper = new (std::nothrow) Delegate();
  if (wrapper == nullptr) {
    cpu_backend().destroy(on_cpu.get());
    return Error::MemoryAllocationFailed;
  }
  wrapper->cpu_handle = on_cpu.get();
  return static_cast<DelegateHandle*>(wrapper);
}

Error VulkanBackend::execute(BackendExecutionContext& context, DelegateHandle* handle,
                             Span<EValue*> args) const {
  Delegate& d = *static_cast<Delegate*>(handle);
  if (d.cpu_handle != nullptr) return cpu_backend().execute(context, d.cpu_handle, args);
  if (d.broken) {
    EMBER_LOG(Error, "%s: an earlier call never finished on the GPU; reload the program", kName);
    return Error::InvalidState;
  }
  if (args.size() != size_t{d.num_inputs} + d.num_outputs) {
    EMBER_LOG(Error, "%s: called with %zu values, expects %u", kName, args.size(),
              d.num_inputs + d.num_outputs);
    return Error::InvalidArgument;
  }
  for (size_t i = 0; i < d.num_checks; ++i) {
    const ArgCheck& check = d.checks[i];
    if (!args[check.arg]->is_tensor()) return Error::InvalidArgument;
    const Tensor& t = args[check.arg]->to_tensor();
    const ScalarType expected = cpu::scalar_type_of(check.dtype);
    if (t.scalar_type() != expected || static_cast<size_t>(t.numel()) != check.numel ||
        !t.is_contiguous_dim_order()) {
      EMBER_LOG(Error, "%s: argument %u is not a contiguous %s tensor of %zu elements", kName,
                check.arg, scalar_type_name(expected), check.numel);
      return Error::InvalidArgument;
    }
  }
  uint8_t* io = static_cast<uint8_t*>(d.direct_io ? d.arena.mapped : d.staging.mapped);
  for (size_t i = 0; i < d.num_io_inputs; ++i) {
    const IoSlot& s = d.io[i];
    const Tensor& t = args[s.arg]->to_tensor();
    std::memcpy(io + (d.direct_io ? s.offset : s.staging), t.mutable_data_ptr(), t.nbytes());
  }
  const uint64_t submitted = pal_time_ns();
  const Error err = d.context->submit_and_wait(d.commands, d.fence, d.timeout_ns);
  if (err != Error::Ok) {
    d.broken = true;
    return err;
  }
  for (size_t i = d.num_io_inputs; i < d.num_io; ++i) {
    const IoSlot& s = d.io[i];
    Tensor& t = args[s.arg]->to_tensor();
    std::memcpy(t.mutable_data_ptr(), io + (d.direct_io ? s.offset : s.staging), t.nbytes());
  }
  if (context.event_tracer() != nullptr) trace(d, *context.event_tracer(), submitted);
  if (d.uses_status) {
    uint32_t status;
    std::memcpy(&status, io + (d.direct_io ? d.status_offset : d.status_staging), 4);
    if (status != 0) {
      EMBER_LOG(Error, "%s: embedding: an index is out of range", kName);
      return Error::InvalidArgument;
    }
  }
  return Error::Ok;
}

void VulkanBackend::destroy(DelegateHandle* handle) const {
  destroy_delegate(static_cast<Delegate*>(handle));
}

size_t VulkanBackend::num_outputs(DelegateHandle* handle) const {
  const Delegate& d = *static_cast<const Delegate*>(handle);
  return d.cpu_handle != nullptr ? cpu_backend().num_outputs(d.cpu_handle) : d.num_outputs;
}

size_t VulkanBackend::owned_bytes(DelegateHandle* handle) const {
  const Delegate& d = *static_cast<const Delegate*>(handle);
  if (d.cpu_handle != nullptr) return cpu_backend().owned_bytes(d.cpu_handle);
  return d.arena.bytes + d.constants.bytes + d.params.bytes + d.staging.bytes;
}

bool runs_on_cpu(DelegateHandle* handle) {
  return handle != nullptr && static_cast<const Delegate*>(handle)->cpu_handle != nullptr;
}

Error register_vulkan_backend(const VulkanOptions& options) {
  static VulkanBackend backend;
  backend.set_options(options);
  static const Error registered = register_backend(VulkanBackend::kName, &backend);
  return registered;
}

VulkanDeviceReport vulkan_device_report() {
  VulkanDeviceReport report;
  Result<Context*> c = Context::acquire();
  if (!c.ok()) {
    std::snprintf(report.reason, sizeof(report.reason), "%s", Context::unavailable_reason());
    return report;
  }
  const DeviceInfo& info = c.get()->info();
  report.available = true;
  std::snprintf(report.device, sizeof(report.device), "%s", info.name);
  const char* type = "other";
  switch (info.type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: type = "discrete"; break;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: type = "integrated"; break;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: type = "virtual"; break;
    case VK_PHYSICAL_DEVICE_TYPE_CPU: type = "cpu"; break;
    default: break;
  }
  std::snprintf(report.type, sizeof(report.type), "%s", type);
  report.api_version = info.api_version;
  report.max_storage_buffer_range = info.max_storage_buffer_range;
  report.device_local_bytes = info.device_local_bytes;
  report.timestamps = info.timestamp_period_ns > 0;
  Context::release(c.get());
  return report;
}

}  // namespace ember::vulkan
