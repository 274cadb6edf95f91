"""Plain Python a learner writes for these exercises runs under every assignment's allowlist, unchanged.

Each snippet is compiled by ``autograder.kernels.allowlist.compile_cell`` (RestrictedPython
with the course's policy) and run in a learner namespace with the run-time guards
(``Namespace``), exactly what ``run_cell`` does in a grading kernel, for every
assignment in ``POLICIES``: no rule may refuse it and its own asserts must hold.
The second half checks that what this opened stays closed: a private attribute
of an object the learner did not create, a special method on ``super()`` of a
class the learner did not write, and ``__getattr__``-like methods.
"""

import pytest

from autograder.kernels.allowlist import POLICIES, Namespace, RuleBroken, compile_cell

HONEST = {
    'isinstance-type': 'x = int\nok = isinstance(x, type)\nassert ok',
    'nonlocal': 'def counter():\n    n = 0\n    def inc():\n        nonlocal n\n        n += 1\n        return n\n    return inc\nc = counter()\nc(); assert c() == 2',
    'super-init': 'class A:\n    def __init__(self, x):\n        self.x = x\nclass B(A):\n    def __init__(self, x, y):\n        super().__init__(x)\n        self.y = y\nb = B(1, 2)\nassert (b.x, b.y) == (1, 2)',
    'super-explicit': 'class A:\n    def f(self):\n        return 1\nclass B(A):\n    def f(self):\n        return super(B, self).f() + 1\nassert B().f() == 2',
    'dict-items-comp': "d = {'a': 1, 'b': 2}\nr = [k * v for k, v in d.items()]\nassert r == ['a', 'bb']",
    'dict-comp': "d = {'a': 1}\nr = {k: v + 1 for k, v in d.items()}\nassert r == {'a': 2}",
    'set-comp-gen': 's = {i % 2 for i in range(5)}\ng = sum(i for i in range(4))\nassert s == {0, 1} and g == 6',
    'fstring': "x = 3.14159\nname = 'pi'\ns = f'{name}={x:.2f} {x!r} {{}}'\nassert s.startswith('pi=3.14')",
    'no-grad': 'import reftorch as torch\nwith torch.no_grad():\n    t = torch.ones(2) * 2\nassert not t.requires_grad',
    'try-except': 'try:\n    1 / 0\nexcept ZeroDivisionError as e:\n    msg = str(e)\nelse:\n    msg = None\nfinally:\n    done = True\nassert msg and done',
    'lambda-sorted': "xs = sorted([(2, 'b'), (1, 'a')], key=lambda p: p[0])\nassert xs[0] == (1, 'a')",
    'args-kwargs': "def f(*args, **kwargs):\n    return len(args), sorted(kwargs)\nassert f(1, 2, a=3) == (2, ['a'])\ndef g(a, *, b=2, **rest):\n    return a + b\nassert g(1, **{'b': 3}) == 4\nassert f(*[1, 2], **{'c': 1}) == (2, ['c'])",
    'dataclass': 'from dataclasses import dataclass, field\n@dataclass\nclass P:\n    x: int\n    y: list = field(default_factory=list)\np = P(1)\np.y.append(2)\nassert p.x == 1 and p.y == [2]',
    'frozen-dataclass': 'from dataclasses import dataclass\n@dataclass(frozen=True)\nclass P:\n    x: int\nassert P(1) == P(1)',
    'namedtuple': "from collections import namedtuple\nPt = namedtuple('Pt', 'x y')\nassert Pt(1, 2).y == 2",
    'unpacking': "a, *rest = [1, 2, 3]\n(b, c), d = (1, 2), 3\nfor i, (k, v) in enumerate({'a': 1}.items()):\n    pass\nassert rest == [2, 3]",
    'walrus': 'if (n := len([1, 2])) > 1:\n    pass\nassert n == 2',
    'global': 'COUNT = 0\ndef bump():\n    global COUNT\n    COUNT += 1\nbump()\nassert COUNT == 1',
    'property-class': "class T:\n    def __init__(self):\n        self._v = 1\n    @property\n    def v(self):\n        return self._v\n    def __repr__(self):\n        return f'T({self._v})'\n    def __eq__(self, other):\n        return isinstance(other, T) and other._v == self._v\nassert T().v == 1 and repr(T()) == 'T(1)' and T() == T()",
    'exception-class': "class MyError(ValueError):\n    pass\ntry:\n    raise MyError('x')\nexcept ValueError:\n    pass",
    'generator-fn': 'def gen(n):\n    for i in range(n):\n        yield i * i\n    yield from [9]\nassert list(gen(3)) == [0, 1, 4, 9]',
    'assert-msg': "x = 1\nassert x == 1, f'x is {x}'",
    'slicing': 'xs = list(range(10))\nassert xs[::-1][:2] == [9, 8] and xs[-3:] == [7, 8, 9]\nxs[1:3] = [0, 0]\ndel xs[0]',
    'augassign-attr': "class C:\n    pass\nc = C()\nc.n = 1\nc.n += 1\nd = {'a': [1]}\nd['a'] += [2]\nassert c.n == 2",
    'chained-comp-ternary': "x = 5\ny = 'big' if 1 < x < 10 else 'small'\nassert y == 'big'",
    'string-methods': "s = ' a,b '.strip().split(',')\nassert '-'.join(s) == 'a-b' and 'x{}'.format(1) == 'x1'",
    'print-sep': "print('a', 'b', sep=', ', end='\\n')",
    'zip-strict': "assert list(zip([1], [2])) == [(1, 2)]\nassert dict(zip('ab', range(2))) == {'a': 0, 'b': 1}",
    'math-prod': 'import math\nassert math.prod([2, 3]) == 6',
    'functools-reduce': 'from functools import reduce\nimport operator\nassert reduce(operator.mul, [1, 2, 3], 1) == 6',
    'isinstance-tuple': 'assert isinstance(1, (int, float)) and issubclass(bool, int)',
    'type-compare': 'assert type(1) is int and type([]) == list',
    'with-catch-warnings': "import warnings\nwith warnings.catch_warnings():\n    warnings.simplefilter('ignore')\n    warnings.warn('x')",
    'reftorch-tensor': 'import reftorch as torch\nt = torch.zeros(2, 3)\nassert t.shape == (2, 3) and t.stride() == (3, 1) and t.dtype == torch.float32',
    'method-on-own-dict': "class A:\n    def __init__(self):\n        self.d = {}\n    def put(self, k, v):\n        self.d[k] = v\na = A()\na.put('x', 1)\nassert a.d == {'x': 1}",
    'id-and-is': 'a = []\nb = a\nassert id(a) == id(b) and a is b',
    'hasattr': "import reftorch as torch\nassert hasattr(torch.ones(1), 'shape')",
    'iter-next': 'it = iter([1, 2])\nassert next(it) == 1 and next(it, None) == 2',
    'max-key': "assert max({'a': 2, 'b': 1}.items(), key=lambda kv: kv[1])[0] == 'a'",
    'divmod-abs-round': 'assert divmod(7, 2) == (3, 1) and abs(-1) == 1 and round(1.5) == 2',
    'bytes-bytearray': "b = bytearray(b'ab')\nb[0] = 65\nassert bytes(b) == b'Ab'",
    'copy-deepcopy': 'import copy\nx = [[1]]\ny = copy.deepcopy(x)\ny[0].append(2)\nassert x == [[1]]',
    'matrix-mult-op': 'import numpy as np\na = np.ones((2, 2))\nb = a @ a\nassert b[0, 0] == 2',
    'setitem-list-own': 'grid = [[0] * 2 for _ in range(2)]\ngrid[0][1] = 5\nassert grid[0][1] == 5',
    'class-attr': 'class C:\n    count = 0\n    def __init__(self):\n        C.count += 1\nC(); C()\nassert C.count == 2',
    'inherit-own-super-kw': 'class Base:\n    def __init__(self, *args, **kwargs):\n        self.args = args\nclass D(Base):\n    def __init__(self, *args, **kwargs):\n        super().__init__(*args, **kwargs)\nassert D(1).args == (1,)',
    'sorted-reverse': 'assert sorted([3, 1], reverse=True) == [3, 1]',
    'vars-own-loop-else': 'for i in range(3):\n    if i == 5:\n        break\nelse:\n    found = False\nwhile False:\n    pass\nassert found is False',
    'str-join-map': "assert ','.join(map(str, [1, 2])) == '1,2'",
    'repr-str-format': "assert '%d-%s' % (1, 'a') == '1-a'",
    'tuple-methods': 't = (1, 2, 1)\nassert t.count(1) == 2 and t.index(2) == 1',
    'set-ops': 'a = {1, 2}\na.add(3)\na |= {4}\nassert a - {1} == {2, 3, 4}',
    'list-methods-own': 'xs = []\nxs.append(1)\nxs.extend([2])\nxs.insert(0, 0)\nxs.sort(reverse=True)\nxs.pop()\nassert xs == [2, 1]',
    'numpy-array': 'import numpy as np\na = np.arange(6).reshape(2, 3)\nassert a.strides == (24, 8) and a.T.shape == (3, 2)',
    'enumerate-start': "assert list(enumerate('ab', start=1)) == [(1, 'a'), (2, 'b')]",
    'callable-check': 'assert callable(len) and not callable(1)',
    'min-default': 'assert min([], default=0) == 0',
    'all-any': 'assert all(x > 0 for x in [1, 2]) and not any([])',
    'int-float-conv': "assert int('3') + float('1.5') == 4.5 and str(1) == '1' and bool(0) is False",
    'reversed-range': 'assert list(reversed(range(3))) == [2, 1, 0]',
    'class-repr-dunder-len': 'class Bag:\n    def __init__(self):\n        self.items = []\n    def __len__(self):\n        return len(self.items)\n    def __iter__(self):\n        return iter(self.items)\n    def __getitem__(self, i):\n        return self.items[i]\nb = Bag()\nassert len(b) == 0 and list(b) == []',
    'new-instance-of-type': 'class A:\n    def __init__(self, x=0):\n        self.x = x\na = A(1)\nb = type(a)(2)\nassert b.x == 2',
    'raise-from': "try:\n    try:\n        raise KeyError('k')\n    except KeyError as e:\n        raise ValueError('v') from e\nexcept ValueError as e:\n    caught = str(e)\nassert caught == 'v'",
    'staticmethod': 'class K:\n    @staticmethod\n    def s(x):\n        return x\n    @classmethod\n    def c(cls):\n        return cls\nassert K.s(1) == 1 and K.c() is K',
    'private-attr-own-class': 'class Counter:\n    def __init__(self):\n        self._n = 0\n    def bump(self):\n        self._n += 1\n        return self._n\n    def reset(self):\n        del self._n\n        self._n = 0\nc = Counter()\nc.bump()\nassert c.bump() == 2\nc.reset()',
    'isinstance-own-and-type': 'class A:\n    pass\nassert isinstance(A, type) and isinstance(A(), A) and not isinstance(1, type)\nassert issubclass(A, object) and isinstance(int, (type, int))',
    'super-dunders': "class Base:\n    def __repr__(self):\n        return 'Base'\n    def __len__(self):\n        return 1\nclass Child(Base):\n    def __repr__(self):\n        return 'Child of ' + super().__repr__()\n    def __len__(self):\n        return super().__len__() + 1\nassert repr(Child()) == 'Child of Base' and len(Child()) == 2",
    'dataclass-post-init': 'from dataclasses import dataclass\n@dataclass\nclass Box:\n    w: int\n    h: int = 1\n    def __post_init__(self):\n        self.area = self.w * self.h\nassert Box(2, 3).area == 6',
}


def run(source, assignment):
    code, violations = compile_cell(source, assignment, "honest")
    assert not violations, "the allowlist refuses plain Python: " + violations[0].text()
    Namespace(assignment, {}, ()).run(code)


@pytest.mark.parametrize("assignment", sorted(POLICIES))
@pytest.mark.parametrize("name", sorted(HONEST))
def test_plain_python_runs_under_the_allowlist(name, assignment):
    run(HONEST[name], assignment)


STILL_REFUSED = {
    "reads a private attribute outside a method of its own class":
        ("class A:\n    pass\na = A()\nx = a._n", "private-name"),
    "reads a private attribute of a tensor it did not create":
        ("import reftorch as torch\n\n\nclass A:\n    def peek(self, t):\n        return t._storage\n"
         "\n\nx = A().peek(torch.ones(2))", "private-name"),
    "writes a private attribute of a tensor it did not create":
        ("import reftorch as torch\n\n\nclass A:\n    def poke(self):\n        self._hidden = 1\n"
         "\n\nA.poke(torch.ones(2))", "private-name"),
    "adds to a private attribute of a tensor it did not create":
        ("import reftorch as torch\n\n\nclass A:\n    def poke(self):\n        self._version += 1\n"
         "\n\nA.poke(torch.ones(2))", "private-name"),
    "calls a special method on super() of a class it did not write":
        ("class A(Exception):\n    pass\nx = super(ValueError, ValueError('v')).__init__('w')", "private-name"),
    "defines __getattr__ on its own class":
        ("class A:\n    def __getattr__(self, name):\n        return 0", "private-name"),
    "reads __getattribute__ through super()":
        ("class A:\n    def f(self):\n        return super().__getattribute__('x')\nA().f()", "private-name"),
}


@pytest.mark.parametrize("name", sorted(STILL_REFUSED))
def test_what_the_learner_did_not_make_stays_closed(name):
    source, rule = STILL_REFUSED[name]
    code, violations = compile_cell(source, "clone", "cheat")
    if violations:
        assert violations[0].rule == rule, violations[0].text()
        return
    with pytest.raises(RuleBroken, match="rules/" + rule):
        Namespace("clone", {}, ()).run(code)
