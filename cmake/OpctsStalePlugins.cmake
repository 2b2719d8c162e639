# opcts_remove_stale_plugins(<plugin_dir> <built_names>): removes every opcts-*.so in plugin_dir
# whose file name is not in the list built_names. The loader takes every opcts-*.so there as a
# built-in, so a plugin that an earlier configuration built (-DOPCTS_TORCH=ON, since turned off)
# would still run as one. Other files are left alone. Tested by cmake/stale_plugins_test.cmake.
function(opcts_remove_stale_plugins plugin_dir built_names)
  file(GLOB present_plugins "${plugin_dir}/opcts-*.so")
  foreach(plugin IN LISTS present_plugins)
    get_filename_component(plugin_name "${plugin}" NAME)
    if(NOT plugin_name IN_LIST built_names)
      file(REMOVE "${plugin}")
      message(STATUS "Removed ${plugin}: this configuration does not build it")
    endif()
  endforeach()
endfunction()
