/* aarch64cpufeatures.h: the builder reads this header on every platform; mesh's C libraries are
 * built for x86-64 only, so this only declares the struct (field names as the builder's). */
#ifndef MESH_AARCH64CPUFEATURES_H
#define MESH_AARCH64CPUFEATURES_H
typedef struct {
  char fFP, fASIMD, fEVTSTRM, fAES, fPMULL, fSHA1, fSHA2, fCRC32, fLSE, fDCPOP, fSHA3, fSHA512,
       fSVE, fSVE2, fSTXR_PREFETCH, fA53MAC, fDMB_ATOMICS, fPACA, fSVEBITPERM, fFPHP, fASIMDHP;
} CPUFeatures;
#endif
