"""Build glue that pyproject.toml cannot express: the cffi extension module."""

from setuptools import setup

setup(
    cffi_modules=["csrc/ffibuild.py:ffibuilder"],
    zip_safe=False,
)
