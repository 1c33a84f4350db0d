# Sourced by the device scripts: the staged shared libraries (scripts/device/stage.sh copies them
# into $BUILD/lib) first on the loader's path, so that memlab starts on a GPU machine without
# cpp-httplib or brotli installed.
BUILD="${BUILD:-.device}"
if [ -d "$BUILD/lib" ]; then
  export LD_LIBRARY_PATH="$(cd "$BUILD/lib" && pwd)${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
