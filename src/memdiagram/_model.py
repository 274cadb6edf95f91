"""The diagram model: what one step of a program looks like, as plain data.

A ``Snapshot`` is a picture of the four things the course talks about, taken
from a set of named tensors:

* ``names``    name -> tensor label (``b = a`` gives two names, one tensor);
* ``tensors``  one ``TensorInfo`` per tensor *object*: its metadata, the
               storage it looks into, the storage slots its elements occupy
               (``offset + sum(index_k * stride_k)``, every index) and the
               tensor its ``.grad`` holds;
* ``storages`` one ``StorageInfo`` per allocation, with its values;
* ``counters`` one ``CounterInfo`` per version counter object, with the
               tensors that hold it;
* ``nodes``    the autograd graph reachable from those tensors' ``grad_fn``,
               with whether each node still keeps what it saved for backward.

Objects are given short labels (T1, S2, C1, N3) by a ``Labels`` table. In a
step-through one table is used for every step, and it keeps the objects
alive, so the same object gets the same label at every step and Python cannot
reuse an address for a new object while the steps are being recorded.

Besides the named tensors, a snapshot also shows tensors the program can no
longer name but that still matter: the base of a view, the leaf at the end of
an ``AccumulateGrad`` edge, and the gradient tensor in a drawn tensor's
``.grad``.
"""

from dataclasses import dataclass, field

from reftorch._strides import element_positions


@dataclass(frozen=True)
class TensorInfo:
    label: str
    names: tuple
    shape: tuple
    stride: tuple
    offset: int
    dtype: str
    device: str
    requires_grad: bool
    is_leaf: bool
    grad_fn: object      # node name or None
    grad_fn_label: object
    version: object      # int, or None when there is no counter
    storage: str         # storage label
    counter: object      # counter label or None
    base: object         # label of the tensor this is a view of, or None
    grad: object         # label of the tensor in .grad, or None
    grad_of: tuple       # labels of the drawn tensors whose .grad this tensor is
    slots: tuple         # storage slots covered by the elements, sorted, no repeats
    positions: tuple     # the slot of each element, in index order (flat)
    values: tuple        # the tensor's own elements, flat, in index order


@dataclass(frozen=True)
class StorageInfo:
    label: str
    nbytes: int
    device: str
    dtype: str           # dtype used to read the slots (the first viewer's)
    values: object       # tuple of slot values, or None if unreadable
    tensors: tuple       # labels of the tensors looking into it


@dataclass(frozen=True)
class CounterInfo:
    label: str
    version: object
    tensors: tuple
    how: str             # how sharing was found out (read, or inferred)


@dataclass(frozen=True)
class NodeInfo:
    label: str
    name: str
    next: tuple          # labels of next_functions nodes
    variable: object     # for AccumulateGrad: label of the leaf tensor
    outputs: tuple       # labels of drawn tensors whose grad_fn this is
    saved: object        # None, "kept", "modified" or "freed" (see _adapter.SAVED_STATES)


@dataclass
class Snapshot:
    statement: str = ""
    names: dict = field(default_factory=dict)
    tensors: dict = field(default_factory=dict)
    storages: dict = field(default_factory=dict)
    counters: dict = field(default_factory=dict)
    nodes: dict = field(default_factory=dict)
    library: str = ""
    output: str = ""     # what the statement printed
    error: str = ""      # the exception it raised, if any


class Labels:
    """Gives each object a short, stable label, and keeps the object alive."""

    def __init__(self):
        self._labels = {}
        self._alive = []
        self._count = {}

    def label(self, prefix, key, obj=None):
        full = (prefix, key)
        if full not in self._labels:
            self._count[prefix] = self._count.get(prefix, 0) + 1
            self._labels[full] = f"{prefix}{self._count[prefix]}"
        if obj is not None:
            self._alive.append(obj)
        return self._labels[full]


def _values_of(t, adapter, storage_values, meta):
    if storage_values is None:
        return ()
    positions = element_positions(meta["shape"], meta["stride"], meta["offset"])
    return tuple(storage_values[p] for p in positions)


def take_snapshot(named, adapter, labels=None, statement=""):
    """A ``Snapshot`` of ``named`` (an ordered dict name -> tensor)."""
    labels = labels if labels is not None else Labels()
    snap = Snapshot(statement=statement, library=adapter.library)

    # 1. Which tensor objects to draw: the named ones, then bases, graph leaves and gradients.
    objects = {}
    names_of = {}

    def add(t, name=None):
        key = id(t)
        if key not in objects:
            objects[key] = t
            names_of[key] = []
        if name is not None:
            names_of[key].append(name)

    def add_bases():
        for t in list(objects.values()):
            base = adapter.base(t)
            if base is not None:
                add(base)

    def add_grads():
        for t in list(objects.values()):
            grad = adapter.grad(t)
            if grad is not None:
                add(grad)

    for name, t in named.items():
        add(t, name)
    add_bases()
    nodes = _walk_graph(objects.values(), adapter)
    for node in nodes:
        leaf = adapter.accumulated_variable(node)
        if leaf is not None:
            add(leaf)
    add_bases()
    drawn = 0
    while drawn != len(objects):  # a gradient can have a base, or a gradient of its own
        drawn = len(objects)
        add_grads()
        add_bases()

    tensor_label = {key: labels.label("T", key, t) for key, t in objects.items()}
    node_label = {id(n): labels.label("N", id(n), n) for n in nodes}

    # 2. Tensors, storages and counters.
    storage_viewers = {}
    counter_holders = {}
    grads = {key: adapter.grad(t) for key, t in objects.items()}
    grad_of = {}
    for key, grad in grads.items():
        if grad is not None:
            grad_of.setdefault(id(grad), []).append(tensor_label[key])
    for key, t in objects.items():
        meta = adapter.metadata(t)
        s_label = labels.label("S", adapter.storage_key(t))
        if s_label not in snap.storages:
            values = adapter.storage_values(t)
            snap.storages[s_label] = StorageInfo(
                s_label, adapter.storage_nbytes(t), meta["device"], meta["dtype"],
                None if values is None else tuple(values), ())
            storage_viewers[s_label] = (values, [])
        values = storage_viewers[s_label][0]
        if snap.storages[s_label].dtype != meta["dtype"]:
            values = adapter.storage_values(t)  # same bytes read as another dtype
        storage_viewers[s_label][1].append(tensor_label[key])
        c_key, how = adapter.counter_key(t, list(objects.values()))
        c_label = None if c_key is None else labels.label("C", c_key)
        if c_label is not None:
            counter_holders.setdefault(c_label, (meta["version"], how, []))[2].append(tensor_label[key])
        positions = element_positions(meta["shape"], meta["stride"], meta["offset"])
        grad_fn = adapter.grad_fn(t)
        base = adapter.base(t)
        snap.tensors[tensor_label[key]] = TensorInfo(
            label=tensor_label[key], names=tuple(names_of[key]), shape=meta["shape"],
            stride=meta["stride"], offset=meta["offset"], dtype=meta["dtype"],
            device=meta["device"], requires_grad=meta["requires_grad"], is_leaf=meta["is_leaf"],
            grad_fn=meta["grad_fn"],
            grad_fn_label=None if grad_fn is None else node_label.get(id(grad_fn)),
            version=meta["version"], storage=s_label, counter=c_label,
            base=None if base is None else tensor_label[id(base)],
            grad=None if grads[key] is None else tensor_label[id(grads[key])],
            grad_of=tuple(grad_of.get(key, ())),
            slots=tuple(sorted(set(positions))),
            positions=tuple(positions),
            values=_values_of(t, adapter, values, meta),
        )
    for s_label, (_, viewers) in storage_viewers.items():
        info = snap.storages[s_label]
        snap.storages[s_label] = StorageInfo(info.label, info.nbytes, info.device, info.dtype,
                                             info.values, tuple(viewers))
    for c_label, (version, how, holders) in counter_holders.items():
        snap.counters[c_label] = CounterInfo(c_label, version, tuple(holders), how)

    # 3. The graph.
    outputs = {}
    for label, info in snap.tensors.items():
        if info.grad_fn_label is not None:
            outputs.setdefault(info.grad_fn_label, []).append(label)
    for node in nodes:
        n_label = node_label[id(node)]
        leaf = adapter.accumulated_variable(node)
        snap.nodes[n_label] = NodeInfo(
            label=n_label, name=adapter.node_name(node),
            next=tuple(node_label[id(n)] for n in adapter.next_functions(node)),
            variable=None if leaf is None else tensor_label[id(leaf)],
            outputs=tuple(outputs.get(n_label, ())),
            saved=adapter.saved_state(node),
        )
    snap.names = {name: tensor_label[id(t)] for name, t in named.items()}
    return snap


def _walk_graph(tensors, adapter):
    """Every node reachable from the tensors' grad_fn, each once, in discovery order."""
    seen = {}
    stack = [adapter.grad_fn(t) for t in tensors]
    stack = [n for n in reversed(stack) if n is not None]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen[id(node)] = node
        stack.extend(reversed(adapter.next_functions(node)))
    return list(seen.values())
