# Writes OUT, a header defining TSOREACH_COMMIT (the source tree's git commit,
# "-dirty" when it has changes; "unknown" outside a git checkout), and
# rewrites it only when that changes, so a build recompiles one file when
# the commit moves. Run at every build: cmake -DSRC=dir -DOUT=file -P commit.cmake
execute_process(
  COMMAND git -C "${SRC}" describe --always --dirty --abbrev=12
  OUTPUT_VARIABLE commit
  OUTPUT_STRIP_TRAILING_WHITESPACE
  ERROR_QUIET
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR commit STREQUAL "")
  set(commit "unknown")
endif()
set(content "#pragma once\n#define TSOREACH_COMMIT \"${commit}\"\n")
set(old "")
if(EXISTS "${OUT}")
  file(READ "${OUT}" old)
endif()
if(NOT old STREQUAL content)
  file(WRITE "${OUT}" "${content}")
endif()
