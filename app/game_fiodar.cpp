// Fiodar is not implemented yet (its issue is open): the command line answers
// with a clear "not yet available" error. Replace this file when it lands.
#include "app/registry.h"

namespace loom {

GameInfo fiodar_info() {
  GameInfo g;
  g.name = "fiodar";
  g.title = "Fiodar (not yet available)";
  g.available = false;
  return g;
}

}  // namespace loom
