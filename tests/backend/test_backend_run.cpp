// ember_run with the test backend registered: runs delegated test programs
// from the Python tests (tests/python/test_delegation.py).
#include "tests/backend/test_backend.h"
#include "tools/ember_run.h"

int main(int argc, char** argv) {
  ember::testing::register_test_backend();
  return ember::ember_run_main(argc, argv);
}
