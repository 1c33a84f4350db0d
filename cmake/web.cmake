# The web lab (issue 11): `memlab serve` and `memlab report`, in two libraries:
#   memlab_web_content  the embedded bundle, `memlab report` and `memlab run --report`; no HTTP
#                       library, linked by `memlab` (which starts where only the NVIDIA driver is)
#   memlab_server       the HTTP server over Debian's shared cpp-httplib, linked by the
#                       memlab-serve executable (CMakeLists.txt), which `memlab serve` runs
# MEMLAB_WEB=ON (default) needs node/npm (the bundle in web/) and cpp-httplib; OFF builds the CLI
# without them (serve and report then exit 2 saying so) and no memlab-serve.
option(MEMLAB_WEB "Build the web lab: memlab serve and memlab report (needs node, npm, cpp-httplib)" ON)

if(NOT MEMLAB_WEB)
  add_library(memlab_web_content STATIC src/server/commands_off.cpp)
  target_link_libraries(memlab_web_content PUBLIC memlab_core CLI11::CLI11 PRIVATE memlab_warnings)
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
# Debian's libcpp-httplib (a shared library, which pulls in brotli and OpenSSL): memlab_server
# and memlab-serve only, never `memlab`.
find_package(PkgConfig REQUIRED)
pkg_check_modules(MEMLAB_HTTPLIB IMPORTED_TARGET cpp-httplib)
if(NOT MEMLAB_HTTPLIB_FOUND)
  message(FATAL_ERROR
    "MEMLAB_WEB=ON: cpp-httplib was not found (Debian package libcpp-httplib-dev; "
    "scripts/setup.sh installs it), or configure with -DMEMLAB_WEB=OFF.")
endif()

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

# No HTTP here: `memlab` links it (report, run --report).
add_library(memlab_web_content STATIC
  src/server/catalogue.cpp
  src/server/commands.cpp
  src/server/embedded.cpp
  src/server/report_html.cpp
  ${memlab_embedded_cpp})
target_include_directories(memlab_web_content PUBLIC src/server)
target_link_libraries(memlab_web_content PUBLIC memlab_cuda CLI11::CLI11 PRIVATE memlab_warnings)
add_dependencies(memlab_web_content memlab_version)

add_library(memlab_server STATIC
  src/server/api.cpp
  src/server/check_routes.cpp
  src/server/class_command.cpp
  src/server/class_overview.cpp
  src/server/class_routes.cpp
  src/server/class_store.cpp
  src/server/jobs.cpp
  src/server/roles.cpp
  src/server/sqlite.cpp
  src/server/model_backend.cpp
  src/server/results.cpp
  src/server/runs.cpp
  src/server/security.cpp
  src/server/server.cpp)
# The class lab (issue 22): Debian's libsqlite3 (attempts, learners) and OpenSSL's libcrypto
# (SHA-256 of the tokens), linked by the server library only.
find_package(SQLite3 REQUIRED)
find_package(OpenSSL REQUIRED COMPONENTS Crypto)
target_include_directories(memlab_server PRIVATE src)
target_link_libraries(memlab_server PUBLIC memlab_web_content memlab_exercise
                      PkgConfig::MEMLAB_HTTPLIB Threads::Threads SQLite::SQLite3 OpenSSL::Crypto
                      PRIVATE memlab_warnings)
add_dependencies(memlab_server memlab_version)
