#!/usr/bin/env bash
# One-command set-up on Debian 12 / Ubuntu with the NVIDIA driver and the CUDA toolkit:
# installs the dependencies, builds culvert, installs and registers it with the ICD loader
# (/etc/OpenCL/vendors/culvert.icd), and runs the demo on the GPU.
#   usage: sudo scripts/setup.sh            (PREFIX=/usr/local by default)
set -euo pipefail
cd "$(dirname "$0")/.."
PREFIX=${PREFIX:-/usr/local}
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends build-essential cmake \
  opencl-headers opencl-c-headers ocl-icd-opencl-dev ocl-icd-libopencl1 clinfo \
  clang-16 llvm-16 libclc-16 libclang-common-16-dev llvm-spirv-15 >/dev/null
command -v nvcc >/dev/null || export PATH=/usr/local/cuda/bin:$PATH
# Warnings stay warnings here (CI builds this configuration with -DCULVERT_WERROR=ON).
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DCULVERT_WERROR=OFF -DCMAKE_INSTALL_PREFIX="$PREFIX"
cmake --build build -j"$(nproc)"
cmake --install build
ldconfig
echo "registered: $(cat /etc/OpenCL/vendors/culvert.icd)"
"$PREFIX/bin/culvert-demo"
