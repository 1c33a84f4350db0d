# Writes the version header with the current git commit; rewrites it only when it changes, so a
# build after a new commit records that commit (run at every build by the memlab_version target).
execute_process(
  COMMAND git describe --always --dirty --abbrev=12
  WORKING_DIRECTORY ${SOURCE_DIR}
  OUTPUT_VARIABLE MEMLAB_GIT_COMMIT ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT MEMLAB_GIT_COMMIT)
  set(MEMLAB_GIT_COMMIT unknown)
endif()
configure_file(${SOURCE_DIR}/cmake/version.hpp.in ${OUTPUT} @ONLY)
