#pragma once
// The memory models a program can be checked under, in one table: the CLI
// takes its --model choices from it, and engines and the replay checker ask
// it what a model's store buffers are instead of naming models. A new model
// (ARM, C11) starts with a row here and a buffer kind the engines know.

#include <optional>
#include <span>
#include <string_view>

namespace tsoreach::reach {

enum class MemoryModel { SC, TSO, PSO };

// The model of a command that names none.
constexpr MemoryModel kDefaultModel = MemoryModel::TSO;

// Where a thread's stores wait before memory sees them.
enum class BufferKind {
    None,          // stores go to memory at once (SC)
    Fifo,          // one FIFO per thread: stores leave in program order (TSO)
    FifoPerAddress // one FIFO per thread and address: a store may overtake
                   // older stores to other addresses (PSO)
};

struct ModelInfo {
    MemoryModel model;
    std::string_view name; // as on the command line and in reports
    std::string_view description;
    BufferKind buffers;
    // Which program orders of different addresses an execution may break.
    bool storeLoadReorder;  // a load overtakes an older store (store buffers)
    bool storeStoreReorder; // a store overtakes an older store
    // mfence, lock and unlock wait until the thread's buffers are empty;
    // a load is served by the thread's newest buffered store to its address.
};

// Every model, in the order the help text lists them.
std::span<const ModelInfo> memoryModels();
const ModelInfo& modelInfo(MemoryModel m);

std::string_view name(MemoryModel m); // "sc", "tso", "pso"
std::optional<MemoryModel> memoryModelFromName(std::string_view name);

} // namespace tsoreach::reach
