// Migong on the command line: edge-colouring files and the `loom edges` text.
#pragma once

#include <optional>
#include <string>

#include "model/migong/edges.h"

namespace loom {

/// The edge colouring for a side-n board: the built-in default, or the file
/// at `path` (format: model/migong/edges.h). Throws InputError naming the
/// file on any problem.
migong::EdgeColouring migong_edges(int size, const std::optional<std::string>& path);

}  // namespace loom
