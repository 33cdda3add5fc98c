# cmake --install: the programs and the tools under <prefix>/bin, the docs under
# <prefix>/share/doc/nbk (GNU layout, CMAKE_INSTALL_PREFIX or --prefix).
#   bin/nbk-<experiment>        every program of experiments.txt
#   bin/nbk-{compare,numpy,report,run-record}  links to share/nbk/tools/, which holds the
#                               tools beside their Python package and experiments.txt where
#                               they look for it (one folder up, as in the repository)
#   share/doc/nbk/              README.md, docs/ and the H100 records' READMEs
include(GNUInstallDirs)

foreach(name IN LISTS NBK_EXPERIMENTS)
  string(REPLACE "_" "-" program "nbk-${name}")
  install(TARGETS ${program} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endforeach()

set(NBK_TOOLS nbk-compare nbk-numpy nbk-report nbk-run-record)
set(_nbk_share ${CMAKE_INSTALL_DATADIR}/nbk)
foreach(tool IN LISTS NBK_TOOLS)
  install(PROGRAMS ${PROJECT_SOURCE_DIR}/tools/${tool} DESTINATION ${_nbk_share}/tools)
  # A relative link, so the installed tree can move.
  install(CODE "
    set(link \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_BINDIR}/${tool}\")
    file(MAKE_DIRECTORY \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_BINDIR}\")
    file(RELATIVE_PATH target \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_BINDIR}\"
         \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${_nbk_share}/tools/${tool}\")
    message(STATUS \"Installing: \${link} -> \${target}\")
    file(CREATE_LINK \"\${target}\" \"\${link}\" SYMBOLIC)")
endforeach()
install(DIRECTORY ${PROJECT_SOURCE_DIR}/tools/nbk_compare ${PROJECT_SOURCE_DIR}/tools/nbk_numpy
        DESTINATION ${_nbk_share}/tools PATTERN __pycache__ EXCLUDE)
install(FILES ${PROJECT_SOURCE_DIR}/experiments.txt DESTINATION ${_nbk_share})

set(_nbk_doc ${CMAKE_INSTALL_DATAROOTDIR}/doc/nbk)
install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION ${_nbk_doc})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION ${_nbk_doc})
file(GLOB _nbk_records RELATIVE ${PROJECT_SOURCE_DIR} CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/results/*/README.md)
foreach(record IN LISTS _nbk_records)
  get_filename_component(dir ${record} DIRECTORY)
  install(FILES ${PROJECT_SOURCE_DIR}/${record} DESTINATION ${_nbk_doc}/${dir})
endforeach()
