"""An image read from what the user gave: a directory (read whole, or as the
running system when it is this machine's /), or a tar archive."""

from __future__ import annotations

import stat
from pathlib import Path

from portkit.commands.audit.rootfs.image import Exclusions, Image, Watcher, note_odd_links
from portkit.commands.audit.rootfs.live import is_running_system, live_image
from portkit.commands.audit.rootfs.read_dir import read_directory
from portkit.commands.audit.rootfs.read_tar import read_archive
from portkit.core.errors import BadInput


def read_image(path: Path, exclusions: Exclusions | None = None, watch: Watcher | None = None) -> Image:
    """The tree of a directory, or of a tar archive (plain, gz, bz2, xz);
    watch(image) as entries are read."""
    try:
        info = path.stat()
    except OSError as err:
        raise BadInput(f"{path}: {err.strerror}") from None
    exclusions = exclusions or Exclusions()
    if stat.S_ISDIR(info.st_mode):
        if is_running_system(path):
            return live_image(path, exclusions, watch)
        image = Image(str(path), path.resolve().as_uri().rstrip("/") + "/")
        image.excluded = {pattern: [] for pattern in exclusions.patterns}  # in the order given, matched or not
        read_directory(path, image, exclusions, watch)
    elif stat.S_ISREG(info.st_mode):
        image = Image(str(path), None)
        image.excluded = {pattern: [] for pattern in exclusions.patterns}
        read_archive(path, image, exclusions, watch)
    else:
        raise BadInput(f"{path}: neither a directory nor a tar archive")
    note_odd_links(image)
    return image
