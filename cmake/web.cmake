# The web lab (issue 11): `memlab serve` and `memlab report`, in the memlab_server library.
# MEMLAB_WEB=ON (default) needs node/npm (the bundle in web/); OFF builds the CLI
# without them (serve and report then exit 2 saying so).
option(MEMLAB_WEB "Build the web lab: memlab serve and memlab report (needs node and npm; cpp-httplib is vendored)" ON)

if(NOT MEMLAB_WEB)
  add_library(memlab_server STATIC src/server/commands_off.cpp)
  target_link_libraries(memlab_server PUBLIC memlab_core CLI11::CLI11 PRIVATE memlab_warnings)
  return()
endif()

find_program(MEMLAB_NODE node)
find_program(MEMLAB_NPM npm)
if(NOT MEMLAB_NODE OR NOT MEMLAB_NPM)
  message(FATAL_ERROR
    "MEMLAB_WEB=ON: node and npm are needed to build the web lab (web/) but were not found. "
    "Install them (scripts/setup.sh does: Debian packages nodejs and npm), or configure with "
    "-DMEMLAB_WEB=OFF to build the command line without `memlab serve` and `memlab report`.")
endif()
# cpp-httplib, header-only (third_party/cpp-httplib/httplib.h, v0.11.4): compiled in without
# OpenSSL, zlib or brotli, so `memlab` links no HTTP library (Debian's libcpp-httplib is a shared
# library built with all three).
add_library(memlab_httplib INTERFACE)
target_include_directories(memlab_httplib SYSTEM INTERFACE ${CMAKE_SOURCE_DIR}/third_party/cpp-httplib)
target_link_libraries(memlab_httplib INTERFACE Threads::Threads)

# The bundle: `npm ci` when package-lock.json changes, `npm run build` when a web source does.
# web/ belongs to the front end; until it has a package.json a placeholder page is embedded.
set(memlab_web_stamps "")
if(EXISTS ${CMAKE_SOURCE_DIR}/web/package.json)
  set(memlab_web_dist ${CMAKE_SOURCE_DIR}/web/dist)
  add_custom_command(
    OUTPUT ${CMAKE_BINARY_DIR}/web/npm-ci.stamp
    COMMAND ${MEMLAB_NPM} ci --no-audit --no-fund --loglevel=error
    COMMAND ${CMAKE_COMMAND} -E touch ${CMAKE_BINARY_DIR}/web/npm-ci.stamp
    DEPENDS ${CMAKE_SOURCE_DIR}/web/package-lock.json ${CMAKE_SOURCE_DIR}/web/package.json
    WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}/web
    COMMENT "web: npm ci" VERBATIM)
  file(GLOB_RECURSE memlab_web_sources CONFIGURE_DEPENDS
    ${CMAKE_SOURCE_DIR}/web/src/* ${CMAKE_SOURCE_DIR}/web/public/*)
  file(GLOB memlab_web_config CONFIGURE_DEPENDS
    ${CMAKE_SOURCE_DIR}/web/index.html ${CMAKE_SOURCE_DIR}/web/*.config.* ${CMAKE_SOURCE_DIR}/web/tsconfig*.json)
  add_custom_command(
    OUTPUT ${CMAKE_BINARY_DIR}/web/build.stamp
    COMMAND ${MEMLAB_NPM} run build --silent
    COMMAND ${CMAKE_COMMAND} -E touch ${CMAKE_BINARY_DIR}/web/build.stamp
    DEPENDS ${CMAKE_BINARY_DIR}/web/npm-ci.stamp ${memlab_web_sources} ${memlab_web_config}
    WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}/web
    COMMENT "web: npm run build" VERBATIM)
  list(APPEND memlab_web_stamps ${CMAKE_BINARY_DIR}/web/build.stamp)
else()
  set(memlab_web_dist ${CMAKE_SOURCE_DIR}/src/server/placeholder)
  file(GLOB memlab_web_sources CONFIGURE_DEPENDS ${memlab_web_dist}/*)
  list(APPEND memlab_web_stamps ${memlab_web_sources})
endif()

# The WebAssembly models (branch arch-model's memlab_wasm target), when that target exists.
set(memlab_wasm_dir "")
set(memlab_wasm_dep "")
if(TARGET memlab_wasm)
  set(memlab_wasm_dir ${CMAKE_BINARY_DIR}/wasm)
  set(memlab_wasm_dep memlab_wasm)
endif()

file(GLOB memlab_embedded_docs CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/docs/*.md)
file(GLOB memlab_embedded_kernels CONFIGURE_DEPENDS
  ${CMAKE_SOURCE_DIR}/src/experiments/*/kernels.cuh ${CMAKE_SOURCE_DIR}/src/experiments/*/kernels.cu)
set(memlab_embedded_cpp ${CMAKE_BINARY_DIR}/generated/memlab_embedded_files.cpp)
add_custom_command(
  OUTPUT ${memlab_embedded_cpp}
  COMMAND ${CMAKE_COMMAND} -DOUTPUT=${memlab_embedded_cpp} -DWEB_DIR=${memlab_web_dist}
          -DWASM_DIR=${memlab_wasm_dir} -DDOCS_DIR=${CMAKE_SOURCE_DIR}/docs
          -DLESSONS_DIR=${CMAKE_SOURCE_DIR}/src/experiments -P ${CMAKE_SOURCE_DIR}/cmake/embed_web.cmake
  DEPENDS ${CMAKE_SOURCE_DIR}/cmake/embed_web.cmake ${memlab_web_stamps} ${memlab_wasm_dep}
          ${memlab_embedded_docs} ${memlab_embedded_kernels}
  COMMENT "web: embedding the bundle, the wasm models, docs and kernels" VERBATIM)

add_library(memlab_server STATIC
  src/server/api.cpp
  src/server/catalogue.cpp
  src/server/commands.cpp
  src/server/embedded.cpp
  src/server/jobs.cpp
  src/server/model_backend.cpp
  src/server/report_html.cpp
  src/server/results.cpp
  src/server/runs.cpp
  src/server/security.cpp
  src/server/server.cpp
  ${memlab_embedded_cpp})
target_include_directories(memlab_server PUBLIC src/server)
target_link_libraries(memlab_server PUBLIC memlab_cuda CLI11::CLI11 memlab_httplib
                      PRIVATE memlab_warnings)
add_dependencies(memlab_server memlab_version)
