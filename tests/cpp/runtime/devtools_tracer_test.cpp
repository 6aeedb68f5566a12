// The devtools tracer: events and captured outputs go into the application's
// buffers (allocation_test.cpp proves it allocates nothing); full buffers drop
// and count; the reports (Chrome trace, table) describe what was recorded.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "extension/devtools/devtools_tracer.h"
#include "extension/devtools/profile_report.h"
#include "runtime/executor/method.h"
#include "runtime/executor/program.h"
#include "tensor_factory.h"
#include "test_program.h"

namespace ember {
namespace {

struct Loaded {
  std::vector<uint8_t> bytes = testing::build_program({});
  BufferDataLoader loader{bytes.data(), bytes.size()};
  std::vector<uint8_t> method_memory = std::vector<uint8_t>(64 * 1024);
  std::vector<uint8_t> arena = std::vector<uint8_t>(4096);
  MemoryAllocator allocator{method_memory.data(), method_memory.size()};
  Span<uint8_t> buffers[1] = {Span<uint8_t>(arena.data(), arena.size())};
  MemoryManager manager;
  Result<Program> program = Program::load(&loader);
  Result<Method> method = load();
  testing::OwnedTensor input{ScalarType::Float, {2, 3}};

  Result<Method> load() {
    manager.method_allocator = &allocator;
    manager.planned_buffers = Span<Span<uint8_t>>(buffers, 1);
    if (!program.ok()) return program.error();
    return program->load_method("forward", &manager);
  }
  Loaded() {
    if (method.ok()) {
      float* in = input.tensor().mutable_data_ptr<float>();
      for (int i = 0; i < 6; ++i) in[i] = static_cast<float>(i);
      method->set_input(0, input.tensor());
    }
  }
};

TEST(DevtoolsTracer, RecordsAndCaptures) {
  Loaded m;
  ASSERT_TRUE(m.method.ok());
  std::vector<TraceEvent> events(8);
  std::vector<CapturedTensor> records(4);
  std::vector<uint8_t> data(256);
  const uint64_t masks[1] = {1u << 1};  // add_one.out(in, out) -> out: argument 1
  DevtoolsTracer tracer;
  tracer.set_method(&m.method.get());
  tracer.set_event_buffer(Span<TraceEvent>(events.data(), events.size()));
  tracer.set_capture_buffers(Span<CapturedTensor>(records.data(), records.size()),
                             Span<uint8_t>(data.data(), data.size()),
                             Span<const uint64_t>(masks, 1));
  m.method->set_event_tracer(&tracer);
  for (int i = 0; i < 3; ++i) ASSERT_EQ(m.method->execute(), Error::Ok);
  ASSERT_EQ(tracer.num_events(), 3u);
  EXPECT_EQ(tracer.dropped_events(), 0u);
  for (size_t i = 0; i < 3; ++i) {
    const TraceEvent& e = tracer.event(i);
    EXPECT_STREQ(e.name, "test::add_one.out");
    EXPECT_EQ(e.instruction, 0u);
    EXPECT_EQ(e.kind, TraceEventKind::Instruction);
    EXPECT_LE(e.start_ns, e.end_ns);
  }
  ASSERT_EQ(tracer.num_captured(), 3u);  // once per execute
  const CapturedTensor& r = tracer.captured(2);
  EXPECT_EQ(r.arg, 1u);
  EXPECT_EQ(r.dtype, ScalarType::Float);
  ASSERT_EQ(r.dim, 2);
  EXPECT_EQ(r.sizes[0], 2);
  EXPECT_EQ(r.sizes[1], 3);
  ASSERT_EQ(r.nbytes, 6 * sizeof(float));
  float out[6];
  std::memcpy(out, tracer.capture_data() + r.offset, sizeof(out));
  for (int i = 0; i < 6; ++i) EXPECT_EQ(out[i], static_cast<float>(i) + 1.0f);
}

TEST(DevtoolsTracer, FullBuffersDropAndCount) {
  Loaded m;
  ASSERT_TRUE(m.method.ok());
  std::vector<TraceEvent> events(2);
  std::vector<CapturedTensor> records(4);
  std::vector<uint8_t> data(40);  // room for one [2, 3] float tensor, not two
  const uint64_t masks[1] = {1u << 1};
  DevtoolsTracer tracer;
  tracer.set_event_buffer(Span<TraceEvent>(events.data(), events.size()));
  tracer.set_capture_buffers(Span<CapturedTensor>(records.data(), records.size()),
                             Span<uint8_t>(data.data(), data.size()),
                             Span<const uint64_t>(masks, 1));
  m.method->set_event_tracer(&tracer);
  for (int i = 0; i < 5; ++i) ASSERT_EQ(m.method->execute(), Error::Ok);
  EXPECT_EQ(tracer.num_events(), 2u);
  EXPECT_EQ(tracer.dropped_events(), 3u);
  EXPECT_EQ(tracer.num_captured(), 1u);
  EXPECT_EQ(tracer.dropped_captures(), 4u);
  EXPECT_STREQ(tracer.event(0).name, "");  // no method set: unnamed, still timed
  tracer.reset();
  EXPECT_EQ(tracer.num_events(), 0u);
  ASSERT_EQ(m.method->execute(), Error::Ok);
  EXPECT_EQ(tracer.num_events(), 1u);
  // Off: a method without a tracer runs as before.
  m.method->set_event_tracer(nullptr);
  ASSERT_EQ(m.method->execute(), Error::Ok);
  EXPECT_EQ(tracer.num_events(), 1u);
}

TEST(ProfileReport, RowsSplitADelegateCallIntoItsOpsAndTheRest) {
  std::vector<TraceEvent> events(3);
  events[0].name = "Conv2d";  // ops inside instruction 0, a delegate call
  events[0].kind = TraceEventKind::DelegateOp;
  events[0].start_ns = 1000, events[0].end_ns = 5000, events[0].debug_handle = 7;
  events[1].name = "Binary \"x\"";
  events[1].kind = TraceEventKind::DelegateOp;
  events[1].start_ns = 5000, events[1].end_ns = 6000, events[1].debug_handle = 8;
  events[2].name = "EmberCpuBackend";
  events[2].start_ns = 0, events[2].end_ns = 8000;
  DebugInfo info;
  info.instruction_handles = {8};
  info.nodes[7] = DebugNode{"conv", "aten::convolution", "/m/model.py", 12, "self.conv(x)"};
  const std::vector<ProfileRow> rows = profile_rows(events, &info, 1);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].op, "Conv2d []");
  EXPECT_EQ(rows[0].source, "model.py:12");
  EXPECT_DOUBLE_EQ(rows[0].share, 0.5);
  EXPECT_EQ(rows[1].op, "(delegate call, outside its ops)");
  EXPECT_DOUBLE_EQ(rows[1].ms_per_run, 0.003);
  double shares = 0;
  for (const ProfileRow& r : rows) shares += r.share;
  EXPECT_DOUBLE_EQ(shares, 1.0);
  const std::string json = chrome_trace_json(events, &info);
  EXPECT_NE(json.find("\"name\": \"Binary \\\"x\\\"\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"ph\": \"X\", \"ts\": 1.000, \"dur\": 4.000"), std::string::npos) << json;
  EXPECT_NE(json.find("\"source\": \"model.py:12\""), std::string::npos) << json;
}

}  // namespace
}  // namespace ember
