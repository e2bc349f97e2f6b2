// The `loom` command line as a library function, so tests can drive it in
// process. Exit status: 0 success, 2 bad input (one line on `err`), 1 internal
// error (a bug: never expected).
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace loom {

/// args excludes the program name.
int run_loom(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

/// The toolkit's version (the CMake project version), as `loom --version`
/// prints it and as the progress and checkpoint signatures hold it.
const char* loom_version();

}  // namespace loom
