"""The harness itself: deterministic on torch, and able to fail."""

import types
import warnings

import pytest
import torch

from crosscheck.harness import (
    Trace,
    _cuda_print_problems,
    _unwrap_suffixes,
    _wrapping_problems,
    _gpu_stdout_to_cpu,
    assert_close_ulps,
    assert_same,
    assert_same_as_gpu,
    diff_traces,
    import_reftorch,
    run,
    to_cpu_program,
    ulp_distance,
)

PROGRAMS = [
    """
    import copy
    a = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
    row = a[0]
    c = a.clone()
    c[0] = 5.0
    d = c * c
    e = d + d
    e.sum().backward(retain_graph=True)
    print(e, d.grad)
    torch.manual_seed(0)
    lin = torch.nn.Linear(2, 2)
    sd = lin.state_dict()
    dc = copy.deepcopy(a)
    """,
    """
    x = torch.arange(6.).view(2, 3).t()
    y = x.contiguous()
    print(x.stride(), y.stride(), x.is_contiguous())
    torch.tensor(x)
    z = x.view(6)
    """,
]


@pytest.mark.parametrize("program", PROGRAMS)
def test_running_twice_on_torch_gives_equal_traces(program):
    first, second = run(program, torch), run(program, torch)
    assert diff_traces(first, second) == []
    assert first.tensors and first.pairs


def test_trace_records_stdout_warnings_exception_and_keeps_what_came_before():
    trace = run(
        """
        a = torch.tensor([1., 2.], requires_grad=True)
        print("before", a)
        b = a * 2
        b.grad
        b.sum().backward()
        b.sum().backward()
        print("never")
        """,
        torch,
    )
    assert trace.stdout == "before tensor([1., 2.], requires_grad=True)\n"
    assert [w[0] for w in trace.warnings] == ["UserWarning"]
    assert trace.exception[0] == "RuntimeError"
    assert "second time" in trace.exception[1]
    assert trace.tensors["a"]["grad"]["values"] == ["2.0", "2.0"]
    assert trace.tensors["b"]["graph"] == ("MulBackward0", (("AccumulateGrad", "a"), None))
    assert trace.tensors["b"]["grad"] is None


def test_observation_records_no_warning_and_changes_nothing():
    program = """
    a = torch.tensor([1., 2.], requires_grad=True)
    b = a * 2
    v = a[0]
    """
    first = run(program, torch)
    assert first.warnings == []
    assert first.tensors["a"]["_version"] == 0
    assert first.tensors["v"]["_base"] == "a"
    assert first.pairs[("a", "v")]["shares_storage"] is True
    assert first.pairs[("a", "b")]["shares_storage"] is False


def test_addresses_are_normalised():
    trace = run("a = torch.tensor([1.], requires_grad=True)\nprint((a * 2).grad_fn)", torch)
    assert trace.stdout == "<MulBackward0 object at 0xADDR>\n"


def test_imports_of_torch_inside_a_program_are_redirected_to_the_module_under_test():
    fake = types.SimpleNamespace(__name__="fake", Tensor=torch.Tensor, nn=torch.nn, marker=42)
    trace = run("import torch\nfrom torch import nn\nimport torch.nn as tnn\nprint(torch.marker, nn is tnn)", fake)
    assert trace.exception is None
    assert trace.stdout == "42 True\n"


def test_diamond_graph_shows_the_shared_node():
    trace = run("a = torch.tensor(2., requires_grad=True)\nb = a * a\nc = b + b", torch)
    assert trace.tensors["c"]["graph"] == (
        "AddBackward0",
        (("MulBackward0", (("AccumulateGrad", "a"), "@2")), "@1"),
    )


def test_two_different_programs_give_different_traces():
    one = run("a = torch.ones(2)\nb = a.clone()", torch)
    two = run("a = torch.ones(2)\nb = a.detach()", torch)
    diffs = diff_traces(one, two)
    assert any("shares_storage" in d for d in diffs)
    assert any("b._version" in d or "b._is_view" in d or "shares_storage" in d for d in diffs)


class _AlteredTorch(types.ModuleType):
    """torch, except for what a subclass defines: every other name is torch's."""

    def __getattr__(self, name):
        return getattr(torch, name)


class _Float64Torch(_AlteredTorch):
    """torch, except that torch.tensor makes float64 tensors by default."""

    def __init__(self):
        super().__init__("float64torch")

    def tensor(self, data, **kwargs):
        kwargs.setdefault("dtype", torch.float64)
        return torch.tensor(data, **kwargs)


class _CloneIsDetachTorch(_AlteredTorch):
    """torch whose zeros_like forgets the dtype."""

    def __init__(self):
        super().__init__("brokentorch")

    def zeros_like(self, t, **kwargs):
        return torch.zeros(t.shape)


def test_a_module_that_behaves_differently_is_detected():
    with pytest.raises(pytest.fail.Exception) as info:
        assert_same("a = torch.tensor([1.5, 2.0])\nprint(a)", candidate=_Float64Torch())
    text = str(info.value)
    assert "a.dtype" in text and "torch.float64" in text and "stdout differs" in text

    with pytest.raises(pytest.fail.Exception) as info:
        assert_same("a = torch.tensor([1, 2])\nz = torch.zeros_like(a)", candidate=_CloneIsDetachTorch())
    assert "z.dtype" in str(info.value)


class _WarnsFromItsOwnCode(types.SimpleNamespace):
    """torch, except that ``tensor(...)`` re-raises torch's warnings from its own line."""

    def __getattr__(self, name):
        return getattr(torch, name)

    def tensor(self, *args, **kwargs):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            result = torch.tensor(*args, **kwargs)
        for w in caught:
            warnings.warn(w.message, w.category, stacklevel=1)
        return result


def test_a_warning_is_placed_at_the_program_line_that_torch_names():
    trace = run("a = torch.ones(2)\n\nb = torch.tensor(a)", torch)
    assert [w[0] for w in trace.warnings] == ["UserWarning"]
    assert trace.warning_places == ["line 3"]


def test_a_warning_that_names_the_librarys_own_line_is_detected():
    program = "a = torch.ones(2)\nb = torch.tensor(a)"
    with pytest.raises(pytest.fail.Exception) as info:
        assert_same(program, candidate=_WarnsFromItsOwnCode())
    text = str(info.value)
    assert "warnings name other lines" in text and "['line 2']" in text and "inside the library" in text


class _NudgedTorch(_AlteredTorch):
    """torch whose float32 tensors from ``torch.tensor`` are ``steps`` float32 numbers higher."""

    def __init__(self, steps):
        super().__init__("nudgedtorch")
        self.steps = steps

    def tensor(self, data, **kwargs):
        t = torch.tensor(data, **kwargs)
        for _ in range(self.steps):
            t = torch.nextafter(t, torch.full_like(t, float("inf")))
        return t


def test_ulp_distance_counts_the_representable_numbers_between_two_values():
    one = torch.tensor(1.0)
    above = torch.nextafter(one, torch.tensor(2.0)).item()
    assert ulp_distance(1.0, 1.0) == 0
    assert ulp_distance(1.0, above) == ulp_distance(above, 1.0) == 1
    assert ulp_distance(1.0, 1.0 + 2.0 ** -52, "torch.float64") == 1  # the same two numbers are 0 float32 steps apart
    assert ulp_distance(1.0, 1.0 + 2.0 ** -52) == 0
    assert ulp_distance(0.0, -0.0) == 1  # the sign of zero counts
    assert ulp_distance(-1.0, 1.0) == 2 * ulp_distance(0.0, 1.0) + 1
    assert ulp_distance(float("nan"), float("nan")) == 0
    assert ulp_distance(float("nan"), 1.0) == float("inf")


def test_assert_close_ulps_passes_within_the_bound_and_names_each_element_beyond_it():
    above = torch.nextafter(torch.tensor([1.0, 2.0]), torch.tensor(3.0)).tolist()
    assert_close_ulps(above, [1.0, 2.0], ulps=1)
    assert_close_ulps([["1.0", "nan"]], [[1.0, float("nan")]], ulps=0)  # a Trace's repr strings read back exactly
    with pytest.raises(AssertionError, match="element 1: 2.000000238418579 is 1 ulps from 2.0"):
        assert_close_ulps(above, [1.0, 2.0], ulps=0)
    with pytest.raises(AssertionError, match="differ in shape"):
        assert_close_ulps([1.0], [1.0, 2.0], ulps=4)


def test_a_bounded_comparison_allows_its_ulps_and_no_more_and_still_compares_the_rest():
    program = "a = torch.tensor([1.5, 2.0])\nb = a * 3"
    assert_same(program, candidate=_NudgedTorch(1), ulps={"a": 1, "b": 4})
    with pytest.raises(pytest.fail.Exception, match="a.values: more than 1 ulps"):
        assert_same(program, candidate=_NudgedTorch(2), ulps={"a": 1, "b": 8})
    with pytest.raises(pytest.fail.Exception, match="a.values"):
        assert_same(program, candidate=_NudgedTorch(1), ulps={"b": 4})  # a itself is compared bit for bit
    with pytest.raises(pytest.fail.Exception, match="a.dtype"):
        assert_same(program, candidate=_Float64Torch(), ulps={"*": 100})  # the bound covers numbers only


def test_the_same_module_passes_and_a_wrong_raises_expectation_is_reported():
    assert_same("a = torch.ones(3)\nb = a[1:]", candidate=torch)
    with pytest.raises(pytest.fail.Exception) as info:
        assert_same("a = torch.ones(3)\na.view(2)", candidate=torch)
    assert "the case itself is wrong" in str(info.value)
    assert_same("a = torch.ones(3)\na.view(2)", raises="RuntimeError", candidate=torch)


def test_cpu_rewrite_of_a_cuda_program():
    src = 'a = torch.tensor(1., device="cuda")\nb = a.cuda()\nc = a.to(\'cuda:0\')\nd = torch.zeros(1).cuda( )\n'
    assert to_cpu_program(src) == (
        'a = torch.tensor(1., device="cpu")\nb = a.to("cpu", copy=True)\nc = a.to(\'cpu\')\n'
        'd = torch.zeros(1).to("cpu", copy=True)\n'
    )


def test_gpu_output_is_read_as_cpu_output():
    assert (
        _gpu_stdout_to_cpu("tensor(1., device='cuda:0', dtype=torch.float64, grad_fn=<CloneBackward0>)\ncuda:0\n")
        == "tensor(1., dtype=torch.float64, grad_fn=<CloneBackward0>)\ncpu\n"
    )


def test_misplaced_or_missing_cuda_suffix_is_reported():
    trace = Trace(module="x")
    trace.prints = [
        ("tensor(1., device='cuda:0', dtype=torch.float64)\n", 1),
        ("tensor(1., dtype=torch.float64, device='cuda:0')\n", 1),
        ("tensor(1., dtype=torch.float64)\n", 1),
        ("tensor(1., device='cuda:0') tensor(2.)\n", 2),
    ]
    problems = _cuda_print_problems(trace)
    assert len(problems) == 3
    assert "comes after 'dtype='" in problems[0]
    assert "1 cuda tensor(s) shows device='cuda:0' 0 time(s)" in problems[1]
    assert "2 cuda tensor(s)" in problems[2]


def test_gpu_comparison_on_torch_itself_is_a_plain_cpu_comparison():
    assert_same_as_gpu(
        'a = torch.tensor([1., 2.], device="cuda")\nb = a.clone()\nprint(b)',
        expect_cuda=["a", "b"],
        candidate=torch,
    )


def test_torchs_own_suffix_wrapping_passes_the_wrapping_check():
    trace = run(
        """
        a = torch.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=torch.float64, requires_grad=True)
        print(a.clone())
        print(a * 1000.5)
        print(torch.arange(18, dtype=torch.float64).view(2, 9) * 1.5)
        print(torch.zeros(2, 0, dtype=torch.float64))
        p = torch.nn.Parameter(torch.tensor([[123456.0, 2.0]], dtype=torch.float64))
        print(p)
        print(p.sum(), p.clone())
        """,
        torch,
    )
    assert "\n       grad_fn=<CloneBackward0>)" in trace.stdout  # some suffix did wrap
    for text, _ in trace.prints:
        assert _wrapping_problems(text) == [], text


def test_wrong_suffix_wrapping_is_reported():
    joined = "tensor([[1., 3.],\n        [2., 4.]], device='cuda:0', dtype=torch.float64, grad_fn=<CloneBackward0>)"
    wrapped = "tensor([[1., 3.],\n        [2., 4.]], device='cuda:0', dtype=torch.float64,\n       grad_fn=<CloneBackward0>)"
    assert _wrapping_problems(wrapped) == []
    assert len(_wrapping_problems(joined)) == 1
    assert len(_wrapping_problems("tensor(1.,\n       dtype=torch.float64)")) == 1
    assert _unwrap_suffixes(wrapped) == joined


def test_gpu_comparison_reports_a_tensor_that_should_live_on_cuda():
    with pytest.raises(pytest.fail.Exception) as info:
        assert_same_as_gpu(
            'a = torch.ones(2, device="cuda")\nb = torch.ones(2)\nprint(b)',
            expect_cuda=["a", "b"],
            candidate=import_reftorch(),
        )
    assert "b.device: on a GPU it is 'cuda:0'" in str(info.value)


def test_gpu_comparison_judges_cross_device_pairs_on_the_candidate_alone():
    # torch-on-cpu returns the same tensor for to("cpu"); on a GPU (and in the
    # candidate) the move copies.  The relation must not be compared with torch.
    assert_same_as_gpu(
        'a = torch.ones(2)\ng = a.to("cuda")\nprint(g)',
        expect_cuda=["g"],
        candidate=import_reftorch(),
    )
