#!/usr/bin/env bash
# Installs every Debian package the build, the tests and the GUI smoke test need.
# Safe to re-run: packages already present are skipped, and apt is not touched at all
# when nothing is missing.
set -euo pipefail

packages=(
  build-essential cmake pkg-config
  qt6-base-dev qt6-svg-dev libqt6svg6 libgl-dev
  libqcustomplot-dev
  libeigen3-dev libboost-dev libboost-math-dev liblbfgspp-dev
  # animations: libwebp's WebPAnimEncoder and giflib write them; Qt's WebP reader reads them back in tests
  libwebp-dev libgif-dev qt6-image-formats-plugins
  xvfb xauth xfonts-base fonts-dejavu-core
  imagemagick poppler-utils desktop-file-utils
  clang-format
  # the cluster recipes' tests: a private single-node Slurm and GNU parallel
  slurmctld slurmd slurm-client munge parallel python3
)

# --fuzz adds clang and its sanitizer and libFuzzer runtimes for scripts/fuzz.sh.
if [ "${1:-}" = "--fuzz" ]; then
  packages+=(clang-14 libclang-rt-14-dev)
fi

# --reference adds NumPy and SciPy for the reference scripts under tests/reference/ (they
# produced golden values the tests hold; the build and the tests do not run them).
if [ "${1:-}" = "--reference" ]; then
  packages+=(python3-numpy python3-scipy)
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
  sudo_cmd=(sudo)
fi
"${sudo_cmd[@]}" apt-get update
DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
