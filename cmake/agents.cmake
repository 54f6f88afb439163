# pip install: the agent of every architecture portkit supports, inside the
# package (portkit/agents/<triple>/portkit-target), so that an installed
# portkit runs every target without a clone's build/. Each cross agent is a
# build of this same tree with its toolchain file (cmake/toolchains/), made
# where that cross compiler is installed; an architecture without one is
# written down in portkit/agents/manifest.json with the reason, which
# `portkit agents` and the target errors show.

include(ExternalProject)

set(PK_AGENT_TRIPLES
  aarch64-linux-gnu arm-linux-gnueabihf mips64el-linux-gnuabi64 mips-linux-gnu i686-linux-gnu)
set(PK_AGENTS_DESTINATION "${SKBUILD_PLATLIB_DIR}/portkit/agents")

# This machine's own agent (the one the build makes anyway) under its triple too.
if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64)$")
  set(PK_HOST_TRIPLE x86_64-linux-gnu)
elseif(CMAKE_SYSTEM_PROCESSOR MATCHES "^(aarch64|arm64)$")
  set(PK_HOST_TRIPLE aarch64-linux-gnu)
endif()
set(pk_built "")
set(pk_missing "")
if(PK_HOST_TRIPLE)
  install(TARGETS portkit-target DESTINATION "${PK_AGENTS_DESTINATION}/${PK_HOST_TRIPLE}")
  list(APPEND pk_built "\"${PK_HOST_TRIPLE}\"")
endif()

foreach(triple IN LISTS PK_AGENT_TRIPLES)
  if(triple STREQUAL PK_HOST_TRIPLE)
    continue()
  endif()
  # on PATH, where the toolchain file (cmake/toolchains/) finds it too
  find_program(PK_CC_${triple} NAMES ${triple}-gcc NO_CMAKE_SYSTEM_PATH)
  if(NOT PK_CC_${triple})
    message(WARNING "portkit: no ${triple} agent in this install: ${triple}-gcc was not found "
                    "(Debian: apt-get install gcc-${triple})")
    list(APPEND pk_missing "\"${triple}\": \"${triple}-gcc was not found when portkit was built\"")
    continue()
  endif()
  set(bin "${CMAKE_BINARY_DIR}/agents/${triple}")
  ExternalProject_Add(agent-${triple}
    SOURCE_DIR "${CMAKE_SOURCE_DIR}"
    BINARY_DIR "${bin}"
    CMAKE_ARGS
      -DCMAKE_TOOLCHAIN_FILE=${CMAKE_SOURCE_DIR}/cmake/toolchains/${triple}.cmake
      -DCMAKE_BUILD_TYPE=Release -DPK_BUILD_TESTS=OFF -Wno-dev --log-level=WARNING
    BUILD_COMMAND ${CMAKE_COMMAND} --build "${bin}" --target portkit-target
    BUILD_ALWAYS ON
    INSTALL_COMMAND ""
    BUILD_BYPRODUCTS "${bin}/portkit-target")
  install(PROGRAMS "${bin}/portkit-target" DESTINATION "${PK_AGENTS_DESTINATION}/${triple}")
  list(APPEND pk_built "\"${triple}\"")
endforeach()

list(JOIN pk_built ", " pk_built_json)
list(JOIN pk_missing ", " pk_missing_json)
file(WRITE "${CMAKE_BINARY_DIR}/agents-manifest.json"
  "{\"built\": [${pk_built_json}], \"missing\": {${pk_missing_json}}}\n")
install(FILES "${CMAKE_BINARY_DIR}/agents-manifest.json" DESTINATION "${PK_AGENTS_DESTINATION}" RENAME manifest.json)
