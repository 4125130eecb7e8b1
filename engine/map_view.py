"""One process's copy of a map notice on Redis (engine/redis_board.py), kept from one whole load and
the changes heard after it, one field at a time.

Changes may arrive out of order: a process applies its own write at once, and hears the writes other
processes made a moment before it only afterwards, on the channel. So each field remembers the version
of its last change, and a change older than that (or than the last load or clear) is one the copy has
already: each field ends with its newest value whatever the order, and the copy's version is the
newest change it holds. Until its first load the copy is not shown: it would hold only a few fields.
"""


class MapView:
    def __init__(self):
        self.loaded = False
        self.version = 0  # the newest change this copy holds
        self.floor = 0  # every change at or below this version is in the copy (its last load, or a clear)
        self.fields: dict[str, object] = {}
        self.changed_at: dict[str, int] = {}  # field → the version of its last change above the floor (removals too)

    def change(self, version: int, field: str, value) -> bool:
        """Set `field` to `value` (None: remove it) as of `version`; False if the copy has a newer one."""
        if version <= max(self.floor, self.changed_at.get(field, 0)):
            return False
        self.changed_at[field] = version
        if value is None:
            self.fields.pop(field, None)
        else:
            self.fields[field] = value
        self.version = max(self.version, version)
        return True

    def clear(self, version: int) -> bool:
        """Drop every field changed before `version`; False if the copy has a later clear or load."""
        if version <= self.floor:
            return False
        self.floor = version
        self.fields = {field: value for field, value in self.fields.items() if self.changed_at.get(field, 0) > version}
        self.changed_at = {field: at for field, at in self.changed_at.items() if at > version}
        self.version = max(self.version, version)
        return True

    def load(self, version: int, fields: dict, anew: bool = False) -> None:
        """The whole map as the store held it at `version`; the changes after it that the copy holds stay.
        `anew`: the store may have lost changes the copy holds (a Redis restarted without its data),
        so only the store's fields stand."""
        if anew:
            self.changed_at, self.floor = {}, version
        elif version <= self.floor:
            if self.loaded:
                return  # an older load than the one it had (two threads loaded it at once)
            fields = {}  # a clear heard before the load came after it: none of its fields stand
        later = {field: at for field, at in self.changed_at.items() if at > version}
        kept = {field: self.fields[field] for field in later if field in self.fields}
        self.fields = {**{field: value for field, value in fields.items() if field not in later}, **kept}
        self.changed_at, self.floor = later, max(self.floor, version)
        self.version = max(self.version, version)
        self.loaded = True
