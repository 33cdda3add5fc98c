// A macro of ours for KOKKOS_LAMBDA: fails.
#define NBK_LAMBDA(exec, ...) ::nbk::lambda_for(exec, [=] __VA_ARGS__, KOKKOS_LAMBDA __VA_ARGS__)
