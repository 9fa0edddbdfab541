/* cpu_features.c: which x86-64 features this machine has (cpuid, and xgetbv for what the OS saves),
 * one byte each (1 or 0), and whether it has every feature an image was built for. */
#include <cpuid.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "amd64cpufeatures.h"

static unsigned long long xcr0(void) {
  unsigned int lo, hi;
  __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  return ((unsigned long long)hi << 32) | lo;
}

#define BIT(reg, n) (((reg) >> (n)) & 1)

void determineCPUFeatures(CPUFeatures *f) {
  unsigned int a, b, c, d, max, maxext;
  memset(f, 0, sizeof(*f));
  max = __get_cpuid_max(0, 0);
  if (max < 1) return;
  __cpuid(1, a, b, c, d);
  f->fTSC = BIT(d, 4); f->fCX8 = BIT(d, 8); f->fCMOV = BIT(d, 15); f->fFLUSH = BIT(d, 19);
  f->fMMX = BIT(d, 23); f->fFXSR = BIT(d, 24); f->fSSE = BIT(d, 25); f->fSSE2 = BIT(d, 26);
  f->fHT = BIT(d, 28);
  f->fSSE3 = BIT(c, 0); f->fCLMUL = BIT(c, 1); f->fSSSE3 = BIT(c, 9); f->fSSE4_1 = BIT(c, 19);
  f->fSSE4_2 = BIT(c, 20); f->fPOPCNT = BIT(c, 23); f->fAES = BIT(c, 25); f->fHV = BIT(c, 31);
  int osxsave = BIT(c, 27);
  unsigned long long xcr = osxsave ? xcr0() : 0;
  int avx_os = (xcr & 0x6) == 0x6;
  int avx512_os = avx_os && (xcr & 0xe0) == 0xe0;
  if (avx_os && BIT(c, 28)) {
    f->fAVX = 1; f->fVZEROUPPER = 1;
    f->fFMA = BIT(c, 12); f->fF16C = BIT(c, 29);
  }
  if (max >= 7) {
    __cpuid_count(7, 0, a, b, c, d);
    f->fBMI1 = BIT(b, 3); f->fERMS = BIT(b, 9); f->fRTM = BIT(b, 11); f->fBMI2 = BIT(b, 8);
    f->fADX = BIT(b, 19); f->fFLUSHOPT = BIT(b, 23); f->fCLWB = BIT(b, 24); f->fSHA = BIT(b, 29);
    f->fPKU = BIT(c, 3); f->fOSPKE = BIT(c, 4); f->fRDPID = BIT(c, 22);
    f->fFSRM = BIT(d, 4); f->fSERIALIZE = BIT(d, 14); f->fCET_IBT = BIT(d, 20);
    f->fCET_SS = BIT(c, 7); f->fGFNI = BIT(c, 8);
    if (f->fAVX) {
      f->fAVX2 = BIT(b, 5);
    }
    if (avx512_os && BIT(b, 16)) {
      f->fAVX512F = 1; f->fAVX512DQ = BIT(b, 17); f->fAVX512_IFMA = BIT(b, 21);
      f->fAVX512PF = BIT(b, 26); f->fAVX512ER = BIT(b, 27); f->fAVX512CD = BIT(b, 28);
      f->fAVX512BW = BIT(b, 30); f->fAVX512VL = BIT(b, 31);
      f->fAVX512_VBMI = BIT(c, 1); f->fAVX512_VBMI2 = BIT(c, 6); f->fAVX512_VAES = BIT(c, 9);
      f->fAVX512_VPCLMULQDQ = BIT(c, 10); f->fAVX512_VNNI = BIT(c, 11);
      f->fAVX512_BITALG = BIT(c, 12); f->fAVX512_VPOPCNTDQ = BIT(c, 14);
      f->fAVX512_FP16 = BIT(d, 23);
    }
    unsigned int a1, b1, c1, d1;
    __cpuid_count(7, 1, a1, b1, c1, d1);
    if (f->fAVX) { f->fAVX_IFMA = BIT(a1, 23); f->fSHA512 = BIT(a1, 0); }
  }
  maxext = __get_cpuid_max(0x80000000, 0);
  if (maxext >= 0x80000001) {
    __cpuid(0x80000001, a, b, c, d);
    f->fLZCNT = BIT(c, 5); f->fSSE4A = BIT(c, 6); f->fAMD_3DNOW_PREFETCH = BIT(c, 8) || BIT(d, 31);
    f->fRDTSCP = BIT(d, 27);
  }
  if (maxext >= 0x80000007) {
    __cpuid(0x80000007, a, b, c, d);
    f->fTSCINV_BIT = BIT(d, 8); f->fTSCINV = BIT(d, 8);
  }
}

/* 0 when this machine has every feature the image was built for, else -1. The builder's mask
 * has one byte per CPUFeatures field: 0xFE where the feature is required, 0xFF elsewhere, so a
 * field passes when (have | mask) is 0xFF. */
int checkCPUFeatures(const char *buildtime_mask) {
  CPUFeatures now;
  determineCPUFeatures(&now);
  const unsigned char *have = (const unsigned char *)&now;
  const unsigned char *mask = (const unsigned char *)buildtime_mask;
  for (size_t i = 0; i < sizeof(CPUFeatures); i++) {
    if ((unsigned char)(have[i] | mask[i]) != 0xFF) return -1;
  }
  return 0;
}

int checkCPUFeaturesOrExit(const char *buildtime_features, const char *error_message) {
  int result = checkCPUFeatures(buildtime_features);
  if (result != 0) {
    fputs(error_message, stderr);
    fputc('\n', stderr);
    exit(1);
  }
  return result;
}
