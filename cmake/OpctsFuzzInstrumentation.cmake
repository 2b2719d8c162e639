# What a fuzzing build (OPCTS_FUZZ) changes in the code under test. Each folder calls these for
# its own targets.

# opcts_fuzz_instrument(<target> [SOURCES <file>...]): libFuzzer coverage feedback from the
# target (or only the named sources of it: the parsers). Only code under test is instrumented
# (the plugins and the parsers): the harness (spec model, reference, judge, decoder) would pay
# for comparison tracing in its per-element loops, and libFuzzer scans every counter after each
# run. The runtime in the executable supplies the hooks. Under an external engine
# (OPCTS_LIB_FUZZING_ENGINE: OSS-Fuzz) CFLAGS already instrument everything.
function(opcts_fuzz_instrument target)
  cmake_parse_arguments(ARG "" "" "SOURCES" ${ARGN})
  if(NOT OPCTS_FUZZ OR OPCTS_LIB_FUZZING_ENGINE)
    return()
  endif()
  if(ARG_SOURCES)
    set_property(SOURCE ${ARG_SOURCES} TARGET_DIRECTORY ${target}
                 APPEND PROPERTY COMPILE_OPTIONS -fsanitize=fuzzer-no-link)
  else()
    target_compile_options(${target} PRIVATE -fsanitize=fuzzer-no-link)
  endif()
endfunction()

# opcts_link_no_undefined(<target>): a plugin with a missing symbol fails to link rather than
# to load. Not under a sanitizer or fuzzing engine: their runtimes (and the coverage hooks) live
# in the executable that loads the plugin, so a plugin has undefined symbols by design there.
function(opcts_link_no_undefined target)
  if(NOT OPCTS_SANITIZE AND NOT OPCTS_FUZZ)
    target_link_options(${target} PRIVATE -Wl,--no-undefined)
  endif()
endfunction()
