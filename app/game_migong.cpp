// Migong is not implemented yet (its issue is open): the command line answers
// with a clear "not yet available" error. Replace this file when it lands.
#include "app/registry.h"

namespace loom {

GameInfo migong_info() {
  GameInfo g;
  g.name = "migong";
  g.title = "Migong (not yet available)";
  g.available = false;
  return g;
}

}  // namespace loom
