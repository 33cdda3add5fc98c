# The distributed variants under mpiexec (NBK_MPI builds; label "mpi", the mpi test preset's
# selection): the tests' ranks-* variants and collectives on 1 and 2 ranks, the programs'
# two-rank tables, and bad input that one rank or all ranks see.
#
# mpiexec -q: Open MPI's banner about ranks that exit non-zero would otherwise follow the
# program's own one line. --oversubscribe: two ranks on this 2-core VM with OpenMP threads.
# Each rank gets one OpenMP thread, so two ranks use the two cores. Open MPI refuses root
# unless told; CI runs as root.
set(NBK_MPI_ENVIRONMENT OMP_NUM_THREADS=1 OMP_PROC_BIND=false OMPI_ALLOW_RUN_AS_ROOT=1
    OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none)

function(nbk_mpi_setup test ranks)
  set_tests_properties(${test} PROPERTIES LABELS mpi PROCESSORS ${ranks} TIMEOUT 600
                                          ENVIRONMENT "${NBK_MPI_ENVIRONMENT}")
endfunction()

# nbk_mpi_app_test(name ranks expect program args... [STDERR regex] [STDOUT regex])
function(nbk_mpi_app_test name ranks expect program)
  cmake_parse_arguments(T "" "STDERR;STDOUT" "" ${ARGN})
  add_test(NAME mpi.n${ranks}.${name}
           COMMAND ${CMAKE_COMMAND} "-DEXPECT=${expect}" -DPROGRAM=${MPIEXEC_EXECUTABLE}
                   "-DARGS=-q;${MPIEXEC_NUMPROC_FLAG};${ranks};--oversubscribe;$<TARGET_FILE:${program}>;${T_UNPARSED_ARGUMENTS}"
                   "-DSTDERR=${T_STDERR}" "-DSTDOUT=${T_STDOUT}" -P ${CMAKE_CURRENT_SOURCE_DIR}/expect_exit.cmake)
  nbk_mpi_setup(mpi.n${ranks}.${name} ${ranks})
endfunction()

foreach(ranks IN ITEMS 1 2)
  # Every ranks-* variant at every test size (0, 1 and odd sizes leave ranks with empty or
  # uneven slices), and the collectives, exact on every rank.
  add_test(NAME mpi.n${ranks}.variants
           COMMAND ${MPIEXEC_EXECUTABLE} -q ${MPIEXEC_NUMPROC_FLAG} ${ranks} --oversubscribe $<TARGET_FILE:nbk_tests>
                   "--gtest_filter=*EveryVariant*ranks_*:Ranks.*")
  nbk_mpi_setup(mpi.n${ranks}.variants ${ranks})

  nbk_mpi_app_test(add_one ${ranks} 0 nbk-add-one --size 100003 --probe-size 4096 --repetitions 2
                   STDOUT "MPI: ${ranks} rank.*ranks-resident[ |]+serial[ |]+[^\n]*[|] ok")
  nbk_mpi_app_test(sum ${ranks} 0 nbk-sum --size 100003 --probe-size 4096 --repetitions 2
                   STDOUT "ranks-accurate[ |]+openmp[ |]+[^\n]*[|] ok")
  # Bad input every rank sees: each exits 2, rank 0 says why in one line.
  nbk_mpi_app_test(bad_size ${ranks} 2 nbk-add-one --size -5 STDERR "^nbk-add-one: error: ")
endforeach()

# Two ranks run only the ranks-* variants, and ask for one when given none of them.
nbk_mpi_app_test(one_process_variant 2 2 nbk-add-one --size 1000 --variant resident
                 STDERR "ranks-\\* variants")
# Bad input only rank 0 sees (it alone writes the JSON): rank 1 must not hang waiting for it.
nbk_mpi_app_test(unwritable_json 2 2 nbk-sum --size 1000 --json /nonexistent/dir/out.json
                 STDERR "cannot write")

# run.sh's mpi step with Open MPI packed for a GPU machine, in a mount namespace where the
# system's PMIx plugin folder holds a plugin that cannot load: no "dlopen error" from orterun
# or the ranks (tests/pmix_namespace.sh; skipped without root).
add_test(NAME mpi.pmix_foreign_plugins
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/pmix_namespace.sh ${PROJECT_SOURCE_DIR}
                 $<TARGET_FILE:nbk-add-one> $<TARGET_FILE:nbk-sum>)
set_tests_properties(mpi.pmix_foreign_plugins PROPERTIES LABELS mpi PROCESSORS 2 TIMEOUT 600 SKIP_RETURN_CODE 77)
