"""``tvm.contrib.utils.tempdir``: a temporary directory for exported libraries, as TVM 0.19's
(``relpath(name)``, ``listdir()``, ``remove()``; removed when the object goes away unless
``keep_for_debug``).

    >>> from relay_mlir.tvm.contrib import utils
    >>> d = utils.tempdir()
    >>> d.relpath("lib.so").endswith("lib.so"), d.listdir()
    (True, [])
"""
from __future__ import annotations

import os
import shutil
import tempfile
from typing import List, Optional

__all__ = ["TempDirectory", "tempdir"]


class TempDirectory:
    """A directory removed with the object (or by ``remove()``)."""

    def __init__(self, custom_path: Optional[str] = None, keep_for_debug: Optional[bool] = None) -> None:
        if custom_path is not None:
            os.makedirs(custom_path, exist_ok=True)
            self.temp_dir = os.path.abspath(custom_path)
        else:
            self.temp_dir = tempfile.mkdtemp()
        self._keep = bool(keep_for_debug) or custom_path is not None

    def relpath(self, name: str) -> str:
        return os.path.join(self.temp_dir, name)

    def listdir(self) -> List[str]:
        return sorted(os.listdir(self.temp_dir))

    def remove(self) -> None:
        if os.path.isdir(self.temp_dir):
            shutil.rmtree(self.temp_dir, ignore_errors=True)

    def __del__(self) -> None:
        if not self._keep:
            self.remove()


def tempdir(custom_path: Optional[str] = None, keep_for_debug: Optional[bool] = None) -> TempDirectory:
    return TempDirectory(custom_path, keep_for_debug)
