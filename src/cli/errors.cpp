#include "memlab/cli/errors.hpp"

#include <CLI/CLI.hpp>

#include "memlab/common/error.hpp"
#include "memlab/cuda/check.hpp"

namespace memlab::cli {

int report_error(const std::exception_ptr& error, std::ostream& err) {
  auto internal = [&](const char* what) {
    err << "memlab: internal error (a bug in memlab): " << what
        << "; please report it with the command line at " << kReportBugsAt << "\n";
    return kExitInternal;
  };
  try {
    std::rethrow_exception(error);
  } catch (const CLI::ParseError& e) {
    err << "memlab: " << e.what() << " (see memlab --help)\n";
    return kExitUsage;
  } catch (const UsageError& e) {
    err << "memlab: " << e.what() << "\n";
    return kExitUsage;
  } catch (const CudaError& e) {
    err << "memlab: " << e.what() << "\n";
    return kExitCuda;
  } catch (const std::exception& e) {
    return internal(e.what());
  } catch (...) {
    return internal("an exception that is not a std::exception");
  }
}

}  // namespace memlab::cli
