/* riscv64cpufeatures.h: the builder reads this header on every platform; mesh's C libraries are
 * built for x86-64 only, so this only declares the struct (field names as the builder's). */
#ifndef MESH_RISCV64CPUFEATURES_H
#define MESH_RISCV64CPUFEATURES_H
typedef struct {
  char fI, fM, fA, fF, fD, fC, fV;
} CPUFeatures;
#endif
