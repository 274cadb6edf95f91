"""The course's seed programs: each tutorial example, re-written in our own words.

Same operations, same order, same prints as the examples the course is built
on (the tutorials themselves are not read here).  reftorch must print what
torch prints -- on a GPU for the examples with cuda lines (compared through
``assert_same_as_gpu``: torch on cpu, reftorch on its simulated ``cuda:0``).
"""

import sys
import textwrap
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "differential"))

from crosscheck.harness import assert_same, assert_same_as_gpu  # noqa: E402

LEAF_SRC = "src = torch.tensor(1.0, requires_grad=True)\n"


def from_leaf_src(program):
    """``program`` (dedented) after the line most seeds start with: ``src``, a leaf that requires grad."""
    return LEAF_SRC + textwrap.dedent(program)


@pytest.mark.parametrize("copy, name", [("clone", "w_copy"), ("detach", "w_det")], ids=["seed_01", "seed_05"])
def test_seed_01_and_05_clone_and_detach_of_a_float64_cuda_leaf_print_device_dtype_and_grad_fn(copy, name):
    assert_same_as_gpu(
        f"""
        w = torch.tensor(1.0, dtype=torch.float64, device="cuda", requires_grad=True)
        {name} = w.{copy}()
        print({name})
        """,
        expect_cuda=["w", name],
    )


def test_seed_02_gradient_flows_from_a_clone_back_to_its_source():
    assert_same(
        from_leaf_src("""
        sq = src ** 2
        dup = src.clone()
        tripled = dup * 3
        sq.backward()
        print(src.grad)
        tripled.backward()
        print(dup.grad)  # a non-leaf: warns and prints None
        print(src.grad)
        """)
    )


def test_seed_03_clone_made_to_require_grad_later_is_a_leaf_of_its_own():
    assert_same(
        """
        src = torch.tensor(1.0)
        dup = src.clone()
        dup.requires_grad_()
        sq = dup ** 2
        sq.backward()
        print(src.grad)
        print(dup.grad)
        """
    )


def test_seed_04_clone_memory_is_independent_of_the_source():
    assert_same(
        from_leaf_src("""
        dup = src.clone()
        src.data *= 3
        dup += 1
        print(src)
        print(dup)
        """)
    )


def test_seed_06_detached_tensor_becomes_an_independent_leaf_for_autograd():
    assert_same(
        from_leaf_src("""
        sq = src ** 2
        det = src.detach()
        print(det.grad)
        det.requires_grad_()
        tripled = det * 3
        sq.backward()
        tripled.backward()
        print(src.grad)
        print(det.grad)
        """)
    )


def test_seed_07_detached_tensor_shares_memory_both_ways():
    assert_same(
        from_leaf_src("""
        det = src.detach()
        print(src)
        print(det)
        det += 1
        print(src)
        print(det)
        src.data *= 2
        print(src)
        print(det)
        """)
    )


def test_seed_08_copy_into_an_int_cuda_tensor_casts_and_broadcasts():
    assert_same_as_gpu(
        """
        ints = torch.tensor([[1, 2, 3], [4, 5, 6]], device="cuda")
        floats = torch.tensor([7.0, 8.0, 9.0], requires_grad=True)
        ints.copy_(floats)
        print(ints)
        """,
        expect_cuda=["ints"],
    )


def test_seed_09_rebinding_the_source_name_leaves_the_clone_alone():
    assert_same(
        from_leaf_src("""
        dup = src.clone()
        src = src + 1
        print(dup)
        """)
    )


@pytest.mark.parametrize("copy, name, raises", [("clone", "dup", None), ("detach", "det", "RuntimeError")],
                         ids=["seed_10", "seed_11"])
def test_seed_10_and_11_in_place_add_then_backward_reaches_the_source_from_a_clone_and_fails_from_detach(
        copy, name, raises):
    # seed 11 ends at its backward, which raises: the two prints after it are seed 10's only
    assert_same(
        from_leaf_src(f"""
        {name} = src.{copy}()
        {name}.add_(torch.tensor(1.0))
        print(src)
        print({name})
        {name}.backward()
        print({name}.grad)
        print(src.grad)
        """),
        raises=raises,
    )


def test_seed_12_six_ways_to_copy_a_cuda_leaf():
    assert_same_as_gpu(
        """
        w = torch.tensor(1.0, dtype=torch.float32, device="cuda", requires_grad=True)
        by_clone = w.clone()
        by_detach = w.detach()
        by_both = w.clone().detach()
        by_new = w.new_tensor(w)
        by_new_cpu = w.new_tensor(w, device="cpu", dtype=torch.float64, requires_grad=False)
        print(w)
        print(by_clone)
        print(by_detach)
        print(by_both)
        print(by_new)
        print(by_new_cpu)
        """,
        expect_cuda=["w", "by_clone", "by_detach", "by_both", "by_new"],
    )


def test_seed_13_copy_from_a_cuda_tensor_keeps_the_destination_on_cpu():
    assert_same_as_gpu(
        """
        host = torch.tensor(1.0, device="cpu", requires_grad=False)
        dev = torch.tensor(2.0, device="cuda", requires_grad=True)
        print(host)
        print(dev)
        host.copy_(dev)
        print(host)
        print(host.device)
        print(host.requires_grad)
        """,
        expect_cuda=["dev"],
    )


def test_seed_14_detach_shares_data_but_not_the_graph():
    assert_same(
        """
        x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
        y = x.detach()
        print(y)
        print(y.shape)
        print(y.dtype)
        print(y.device)
        print(x.requires_grad, y.requires_grad)
        y[0] = 10.0
        print(x)
        z = x * 2
        w = y * 2
        print(w.requires_grad)
        x.sum().backward()
        print(x.grad)
        print(y.grad)
        z2 = x.detach().clone()
        """
    )


def test_seed_15_clone_requires_grad_and_has_no_grad_of_its_own():
    assert_same(
        """
        x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
        y = x.clone()
        print(y.requires_grad)
        x.sum().backward()
        print(x.grad)
        y = x.clone()
        print(y.grad)
        """
    )


def test_seed_16_grad_fn_of_a_leaf_and_of_a_product():
    assert_same(
        """
        x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
        print(x.grad_fn)
        y = x * 2
        print(y.grad_fn)
        y.sum().backward()
        print(x.grad)
        """
    )


def test_seed_17_writing_into_a_clone_leaves_the_source_unchanged():
    assert_same(
        """
        a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
        print(a)
        b = a.clone()
        print(b)
        b[0] = 99.0
        print(a)
        print(b)
        b2 = a.clone().detach()
        print(b2)
        """
    )


def test_seed_18_assignment_is_not_a_copy_and_writing_into_the_leaf_fails():
    assert_same(
        """
        a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
        b = a
        b[0] = 99.0
        """,
        raises="RuntimeError",
    )


def test_seed_19_clone_of_ones_prints_clone_backward():
    assert_same(
        """
        x = torch.ones(5, requires_grad=True)
        y = x.clone()
        print(x)
        print(y)
        """
    )


def test_seed_20_two_clones_both_send_gradient_to_the_source():
    assert_same(
        """
        x = torch.ones(5, requires_grad=True)
        y = x.clone() * 2
        z = x.clone() * 3
        s = (y + z).sum()
        s.backward()
        print(x.grad)
        print(y.grad)
        """
    )


def test_seed_21_detached_branch_sends_no_gradient():
    assert_same(
        """
        x = torch.ones(5, requires_grad=True)
        y = x * 2
        z = x.detach() * 3
        s = (y + z).sum()
        s.backward()
        print(x.grad)
        """
    )


def test_seed_22_zeroing_a_detached_alias_breaks_the_saved_tensor():
    assert_same(
        """
        a = torch.ones(5, requires_grad=True)
        b = a ** 2
        c = a.detach()
        c.zero_()
        b.sum().backward()
        """,
        raises="RuntimeError",
    )


def test_seed_23_deepcopy_of_a_leaf():
    assert_same(
        """
        import copy
        x = torch.ones(5, requires_grad=True)
        x_deep = copy.deepcopy(x)
        print(x)
        print(x_deep)
        """
    )


def test_seed_24_shallow_and_deep_copies_of_a_nested_list():
    assert_same(
        """
        import copy
        outer = [1, 2, [3, 4]]
        shallow = copy.copy(outer)
        deep = copy.deepcopy(outer)
        shallow[2][0] = 30
        deep[2][1] = 40
        shallow[0] = 10
        print(outer)
        print(shallow)
        print(deep)
        print(shallow[2] is outer[2], deep[2] is outer[2])
        """
    )


def test_seed_25_a_module_has_no_clone_but_can_be_deep_copied():
    assert_same(
        """
        import copy
        from torch import nn
        net = nn.Linear(2, 2)
        print(hasattr(net, "clone"))
        # random init is not compared: give the layer known weights
        with torch.no_grad():
            net.weight.copy_(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
            net.bias.copy_(torch.tensor([0.5, -0.5]))
        net_copy = copy.deepcopy(net)
        print(net_copy.weight is net.weight)
        print(net_copy.weight.data_ptr() == net.weight.data_ptr())
        print(net_copy.weight)
        """
    )


def test_seed_26_clone_then_move_to_cuda_is_two_copies_and_to_alone_is_one():
    # On a GPU, .to("cuda") of a cpu tensor copies by itself; torch on cpu runs
    # the same copy as .to("cpu", copy=True), which records the same node.
    program = """
        src = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
        twice = src.clone().to("cuda")
        once = src.to("cuda")
        print(twice)
        print(once)
        print(twice.grad_fn.name(), twice.grad_fn.next_functions[0][0].name())
        print(once.grad_fn.name(), once.grad_fn.next_functions[0][0].variable is src)
        print(once.data_ptr() == src.data_ptr(), once.is_leaf)
        (twice.sum() + 2 * once.sum()).backward()
        print(src.grad)
        """
    assert_same_as_gpu(
        program,
        expect_cuda=["twice", "once"],
        cpu_program=program.replace('.to("cuda")', '.to("cpu", copy=True)'),
    )


def test_seed_27_new_tensor_takes_only_data_by_position():
    assert_same(
        """
        base = torch.zeros(2)
        data = [1, 2]
        print(base.new_tensor(data, dtype=None, device=None, requires_grad=False))
        print(base.new_tensor(data, dtype=torch.int64))
        print(base.new_tensor(data=data))
        base.new_tensor(data, torch.int64)
        """,
        raises="TypeError",
    )
