/* amd64cpufeatures.h: the CPU features a native image checks at start, one byte each. The field
 * names are the ones the image builder's CPUFeatures struct names; the layout is ours (all char),
 * which lets cpu_features.c compare a build's required set with the machine's byte by byte. */
#ifndef MESH_AMD64CPUFEATURES_H
#define MESH_AMD64CPUFEATURES_H

#define MESH_CPU_FEATURES(X) \
  X(fCX8) X(fCMOV) X(fFXSR) X(fHT) X(fMMX) X(fAMD_3DNOW_PREFETCH) X(fSSE) X(fSSE2) X(fSSE3) \
  X(fSSSE3) X(fSSE4A) X(fSSE4_1) X(fSSE4_2) X(fPOPCNT) X(fLZCNT) X(fTSC) X(fTSCINV) \
  X(fTSCINV_BIT) X(fAVX) X(fAVX2) X(fAES) X(fERMS) X(fCLMUL) X(fBMI1) X(fBMI2) X(fRTM) X(fADX) \
  X(fAVX512F) X(fAVX512DQ) X(fAVX512PF) X(fAVX512ER) X(fAVX512CD) X(fAVX512BW) X(fAVX512VL) \
  X(fSHA) X(fFMA) X(fVZEROUPPER) X(fAVX512_VPOPCNTDQ) X(fAVX512_VPCLMULQDQ) X(fAVX512_VAES) \
  X(fAVX512_VNNI) X(fFLUSH) X(fFLUSHOPT) X(fCLWB) X(fAVX512_VBMI2) X(fAVX512_VBMI) X(fHV) \
  X(fSERIALIZE) X(fRDTSCP) X(fRDPID) X(fFSRM) X(fGFNI) X(fAVX512_BITALG) X(fPKU) X(fOSPKE) \
  X(fCET_IBT) X(fCET_SS) X(fF16C) X(fAVX512_IFMA) X(fAVX_IFMA) X(fAPX_F) X(fSHA512) \
  X(fAVX512_FP16) X(fAVX10_1) X(fAVX10_2)

#define MESH_CPU_FIELD(name) char name;
typedef struct {
  MESH_CPU_FEATURES(MESH_CPU_FIELD)
} CPUFeatures;
#undef MESH_CPU_FIELD

void determineCPUFeatures(CPUFeatures *features);
int checkCPUFeatures(const char *buildtime_features);
int checkCPUFeaturesOrExit(const char *buildtime_features, const char *error_message);

#endif
