# cmake -DWORK_DIR=<scratch dir, emptied first> -P stale_plugins_test.cmake: plants built,
# stale and unrelated files in a plugin directory and checks that opcts_remove_stale_plugins
# removes the stale plugins only.
cmake_minimum_required(VERSION 3.25)
include(${CMAKE_CURRENT_LIST_DIR}/OpctsStalePlugins.cmake)
if(NOT WORK_DIR)
  message(FATAL_ERROR "usage: cmake -DWORK_DIR=<dir> -P stale_plugins_test.cmake")
endif()
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
set(kept opcts-cpu-simd.so opcts-cpu-reference.so libopcts-helper.so opcts-notes.txt)
set(stale opcts-torch-cpu.so opcts-vulkan.so)
foreach(name IN LISTS kept stale)
  file(WRITE "${WORK_DIR}/${name}" "")
endforeach()

opcts_remove_stale_plugins("${WORK_DIR}" "opcts-cpu-simd.so;opcts-cpu-reference.so")

foreach(name IN LISTS kept)
  if(NOT EXISTS "${WORK_DIR}/${name}")
    message(FATAL_ERROR "removed ${name}, which is built or not a plugin")
  endif()
endforeach()
foreach(name IN LISTS stale)
  if(EXISTS "${WORK_DIR}/${name}")
    message(FATAL_ERROR "left ${name}, a plugin this configuration does not build")
  endif()
endforeach()
