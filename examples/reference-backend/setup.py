"""Builds onramp_ref: the _C extension (against the installed torch) and the wheel.

ONRAMP_REF_REQUIRES_PYTHON overrides the wheel's Requires-Python, for
installing a local build on an interpreter older than the published floor.
ONRAMP_REF_INTEGRATION=1 adds the autoload entry point (torch.backends) to the
wheel's metadata (see onramp_ref/integration.py):

    ONRAMP_REF_REQUIRES_PYTHON=">=3.11" pip wheel --no-deps --no-build-isolation -w dist .
"""
import os

from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CppExtension

setup(
    name="onramp-ref",
    version="0.1.0",
    description="A small PyTorch PrivateUse1 backend that keeps device memory on the host",
    long_description=open(os.path.join(os.path.dirname(__file__), "README.md"), encoding="utf-8").read(),
    long_description_content_type="text/markdown",
    license="Apache-2.0",
    packages=["onramp_ref"],
    # The published floor; README.md says 3.11+, and the two disagree.
    python_requires=os.environ.get("ONRAMP_REF_REQUIRES_PYTHON", ">=3.12"),
    # Debian's torch calls itself 1.13.0a0, which ">=1.13" would exclude.
    install_requires=["torch>=1.13.0a0,<2.16"],
    ext_modules=[
        CppExtension(
            "onramp_ref._C",
            ["csrc/module.cpp", "csrc/host_allocator.cpp", "csrc/hooks.cpp", "csrc/ops/aten_ops.cpp"],
            # No debug info: it would make the build slower and the wheel several times larger.
            extra_compile_args=["-g0"],
        )
    ],
    cmdclass={"build_ext": BuildExtension},
    entry_points=(
        {"torch.backends": ["ref = onramp_ref.integration:autoload"]}
        if os.environ.get("ONRAMP_REF_INTEGRATION") == "1"
        else {}
    ),
)
