"""Storage, metadata, version counters and object identity."""

from crosscheck.harness import assert_same
from diff_programs import program


def test_untyped_storage_reports_bytes_and_size_and_a_pointer_shared_by_views():
    assert_same(
        """
        a = torch.arange(12.).view(3, 4)
        row = a[1]
        s = a.untyped_storage()
        print(s.nbytes(), s.size())
        print(row.untyped_storage().nbytes(), row.untyped_storage().size())
        print(s.data_ptr() == row.untyped_storage().data_ptr())
        print(row.data_ptr() - a.data_ptr(), row.storage_offset())
        """
    )


def test_data_ptr_moves_by_offset_times_element_size():
    assert_same(
        """
        a = torch.arange(10, dtype=torch.float64)
        b = a[3:]
        c = a[::2]
        print(b.data_ptr() - a.data_ptr(), c.data_ptr() == a.data_ptr())
        print(a.element_size(), b.storage_offset(), c.stride(), c.is_contiguous())
        i = torch.arange(4)
        print((i[2:].data_ptr() - i.data_ptr()) // i.element_size())
        """
    )


def test_element_sizes_per_dtype():
    assert_same(
        """
        f = torch.zeros(2)
        d = torch.zeros(2, dtype=torch.float64)
        l = torch.zeros(2, dtype=torch.int64)
        b = torch.zeros(2, dtype=torch.bool)
        print(f.element_size(), d.element_size(), l.element_size(), b.element_size())
        print(f.untyped_storage().nbytes(), d.untyped_storage().nbytes(), l.untyped_storage().nbytes(), b.untyped_storage().nbytes())
        """
    )


def test_stride_and_contiguity_of_transposed_and_stepped_views():
    assert_same(
        """
        a = torch.zeros(2, 3, 4)
        print(a.stride(), a.is_contiguous())
        p = a.permute(2, 0, 1)
        print(p.stride(), p.is_contiguous(), p.storage_offset())
        s = a[:, 1:, ::2]
        print(s.stride(), s.storage_offset(), s.is_contiguous())
        """
    )


def test_version_is_shared_by_a_tensor_its_views_and_its_detach():
    assert_same(
        """
        a = torch.zeros(4)
        v = a[1:3]
        d = a.detach()
        dv = d.view(2, 2)
        print(a._version, v._version, d._version, dv._version)
        v.add_(1)
        print(a._version, v._version, d._version, dv._version)
        d.mul_(2)
        print(a._version, v._version, d._version, dv._version)
        a[0] = 7.0
        print(a._version, v._version, d._version, dv._version)
        """
    )


def test_clone_data_and_copy_copy_start_a_fresh_version_counter():
    assert_same(
        """
        import copy
        a = torch.zeros(3)
        a.add_(1)
        a.add_(1)
        c = a.clone()
        dat = a.data
        cc = copy.copy(a)
        print(a._version, c._version, dat._version, cc._version)
        a.add_(1)
        print(a._version, c._version, dat._version, cc._version)
        dat.add_(1)
        print(a._version, c._version, dat._version, cc._version)
        """
    )


def test_cdata_is_equal_only_for_the_same_object():
    assert_same(
        """
        a = torch.ones(2)
        same = a
        view = a.view(2)
        det = a.detach()
        print(a._cdata == same._cdata, a._cdata == view._cdata, a._cdata == det._cdata)
        print(a is same, a is view, a.data is a)
        """
    )


def test_storage_of_a_scalar_and_an_empty_tensor():
    assert_same(
        """
        s = torch.tensor(3.5)
        e = torch.zeros(0)
        print(s.shape, s.stride(), s.untyped_storage().nbytes())
        print(e.shape, e.stride(), e.untyped_storage().nbytes())
        """
    )


def test_views_keep_the_whole_storage_alive_with_its_size():
    assert_same(
        """
        big = torch.arange(100.)
        small = big[10:12]
        del big
        print(small.untyped_storage().nbytes(), small.storage_offset(), small.tolist())
        c = small.clone()
        print(c.untyped_storage().nbytes(), c.storage_offset())
        """
    )


def test_data_ptr_of_a_tensor_without_elements_is_zero():
    assert_same(
        """
        e = torch.zeros(0)
        a = torch.arange(6.)
        tail = a[6:]
        print(e.data_ptr(), tail.data_ptr(), a[2:2].data_ptr() == 0, tail.storage_offset())
        """
    )


def test_a_storage_index_reads_one_byte_and_a_slice_is_a_window_on_the_same_bytes():
    assert_same(
        """
        t = torch.arange(4, dtype=torch.int16)
        s = t.untyped_storage()
        print(s[0], s[2], s[-2], type(s[1]).__name__, list(s))
        window = s[2:6]
        print(window.nbytes(), window.data_ptr() - s.data_ptr(), list(window), list(s[-2:]), s[5:2].nbytes())
        for index in (8, -9, 1.0, True, None, torch.tensor(1), [0], slice(None, None, -1)):
            try:
                s[index]
            except (IndexError, TypeError, RuntimeError) as error:
                print(type(error).__name__, error)
        for index in (0, slice(0, 1)):
            try:
                torch.ones(2, device="meta").untyped_storage()[index]
            except NotImplementedError as error:
                print(error)
        """
    )


def test_share_memory_moves_the_bytes_in_place_and_is_shared_follows_the_storage():
    assert_same(program("""
        import copy
        t = torch.arange(3.)
        view, s, address = t[1:], t.untyped_storage(), t.data_ptr()
        print(t.is_shared(), view.is_shared(), s.is_shared())
        print(t.share_memory_() is t, t.is_shared(), view.is_shared(), t.detach().is_shared(), t.data.is_shared())
        print(t.data_ptr() == address, view.data_ptr() == t.data_ptr() + 4, t.untyped_storage() is s, t._version)
        moved = t.data_ptr()
        print(t.share_memory_() is t, t.data_ptr() == moved, t.tolist())
        print(t.clone().is_shared(), copy.deepcopy(t).is_shared(), t[0:1].is_shared())
        g = torch.ones(2, requires_grad=True)
        y = g * 2
        print(g.share_memory_().requires_grad, g.is_leaf, y.share_memory_().grad_fn.name(), y.is_shared())
        print(torch.zeros(0).share_memory_().is_shared(), torch.zeros(3).untyped_storage().share_memory_().is_shared())
        attempt(lambda: torch.zeros(3, device="meta").share_memory_())
        attempt(lambda: torch.zeros(3, device="meta").is_shared())
        attempt(lambda: torch.zeros(3).to_sparse().share_memory_())
        """))
