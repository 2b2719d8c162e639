# What a plugin project and a packager get from `cmake --install` (README.md, "Install"): beside
# bin/opcts, the built-in plugins, the specs and the ABI headers (installed where they are
# built), the CMake package `opcts` (find_package(opcts) -> opcts::backend_abi), `opcts.pc`, the
# license, and the .deb that `cpack -G DEB` builds from all of it. Test plugins and mutants have
# no install rule.
include(CMakePackageConfigHelpers)

set(config_dir ${CMAKE_INSTALL_LIBDIR}/cmake/opcts)
install(EXPORT opctsTargets NAMESPACE opcts:: DESTINATION ${config_dir})
configure_package_config_file(cmake/opctsConfig.cmake.in ${PROJECT_BINARY_DIR}/opctsConfig.cmake
  INSTALL_DESTINATION ${config_dir})
# The package holds only headers, so any architecture may use it; a plugin's ABI is checked
# again when opcts loads it (OPCTS_ABI_VERSION).
write_basic_package_version_file(${PROJECT_BINARY_DIR}/opctsConfigVersion.cmake
  COMPATIBILITY SameMajorVersion ARCH_INDEPENDENT)
install(FILES ${PROJECT_BINARY_DIR}/opctsConfig.cmake ${PROJECT_BINARY_DIR}/opctsConfigVersion.cmake
  DESTINATION ${config_dir})

# pkg-config: the include folder relative to the .pc file (${pcfiledir}), so `cmake --install
# --prefix` and the .deb (/usr, where the build was configured for /usr/local) both get the right -I.
set(pkgconfig_dir ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
file(RELATIVE_PATH pkgconfig_to_include ${CMAKE_INSTALL_PREFIX}/${pkgconfig_dir}
     ${CMAKE_INSTALL_FULL_INCLUDEDIR})
configure_file(cmake/opcts.pc.in ${PROJECT_BINARY_DIR}/opcts.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/opcts.pc DESTINATION ${pkgconfig_dir})

# Apache-2.0 asks every redistribution, a binary package too, to carry the license.
install(FILES LICENSE DESTINATION ${CMAKE_INSTALL_DOCDIR})

# `cpack -G DEB` (or the `package` target) in the build folder: opcts_<version>_<arch>.deb,
# installing under /usr, its Depends computed by dpkg-shlibdeps from opcts and the plugins.
set(OPCTS_PACKAGE_MAINTAINER "opcts maintainers <opcts-maintainers@example.org>"
  CACHE STRING "The Maintainer field of the .deb")
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME opcts)
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "Conformance and fuzz test suite for tensor-operator backends")
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER ${OPCTS_PACKAGE_MAINTAINER})
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
if(OPCTS_VULKAN)
  # The vulkan backend needs a Vulkan driver to run on; lavapipe is the one every machine can have.
  set(CPACK_DEBIAN_PACKAGE_RECOMMENDS mesa-vulkan-drivers)
endif()
include(CPack)
