"""channels_last and channels_last_3d: same size and numbers, other strides; what clone,
contiguous, *_like and preserve_format do with them, and torch's errors."""

from crosscheck.harness import assert_same
from diff_programs import torchs_errors_test


def test_clone_in_channels_last_is_an_ordinary_copy_with_channel_innermost_strides():
    assert_same(
        """
        images = torch.arange(12.0).reshape(1, 3, 2, 2).requires_grad_()
        nhwc = images.clone(memory_format=torch.channels_last)
        print(images.stride(), nhwc.stride(), nhwc.shape, torch.equal(images, nhwc))
        print(nhwc.is_contiguous(), nhwc.is_contiguous(memory_format=torch.channels_last),
              images.is_contiguous(memory_format=torch.channels_last))
        print(nhwc.grad_fn, nhwc._version, nhwc.untyped_storage().nbytes())
        kept = nhwc.clone()                                   # preserve_format keeps channels-last
        flat = nhwc.contiguous()                              # a row-major copy
        same = nhwc.contiguous(memory_format=torch.channels_last)
        print(kept.stride(), flat.stride(), same is nhwc, flat is nhwc)
        print(images.contiguous(memory_format=torch.channels_last).stride())
        print(torch.zeros_like(images, memory_format=torch.channels_last).stride(), torch.empty_like(nhwc).stride(),
              torch.ones_like(nhwc, memory_format=torch.contiguous_format).stride())
        print((nhwc * 2).stride(), nhwc.permute(0, 2, 3, 1).is_contiguous())
        print(torch.channels_last, torch.channels_last_3d, torch.contiguous_format)
        """
    )


def test_sizes_of_one_and_zero_and_the_3d_format():
    assert_same(
        """
        print(torch.zeros(2, 3, 1, 1).clone(memory_format=torch.channels_last).stride(),
              torch.zeros(2, 3, 1, 1).is_contiguous(memory_format=torch.channels_last),
              torch.zeros(2, 0, 2, 2).clone(memory_format=torch.channels_last).stride(),
              torch.zeros(0, 3, 2, 2).is_contiguous(memory_format=torch.channels_last))
        volume = torch.zeros(1, 2, 3, 4, 5).clone(memory_format=torch.channels_last_3d)
        print(volume.stride(), volume.is_contiguous(memory_format=torch.channels_last_3d),
              volume.is_contiguous(memory_format=torch.channels_last))
        print(torch.zeros(2, 3).is_contiguous(memory_format=torch.channels_last),
              torch.zeros(2, 3).t().is_contiguous(memory_format=torch.preserve_format))
        """
    )


test_torchs_errors = torchs_errors_test([
    ("torch.zeros(2, 3).clone(memory_format=torch.channels_last)", "RuntimeError"),
    ("torch.zeros(2, 3, 4, 5).clone(memory_format=torch.channels_last_3d)", "RuntimeError"),
    ("torch.zeros(2, 3).contiguous(memory_format=torch.channels_last)", "RuntimeError"),
    ("torch.zeros(2, 3).t().contiguous(memory_format=torch.preserve_format)", "RuntimeError"),
    ("torch.zeros(2, 3).is_contiguous(memory_format=3)", "TypeError"),
    ("torch.zeros(2, 3).is_contiguous(torch.channels_last)", "TypeError"),
    ("torch.zeros(2, 3).contiguous(torch.contiguous_format)", "TypeError"),
    ("torch.zeros(2, 3).contiguous(memory_format=None)", "TypeError"),
    ("torch.zeros(2, 3).t().contiguous(memory_format=1)", "TypeError"),
    ("torch.zeros_like(torch.zeros(3), memory_format=torch.channels_last)", "RuntimeError"),
])


def test_contiguous_with_preserve_format_returns_a_contiguous_tensor_and_refuses_only_a_copy():
    """Chapter 03 shows ``contiguous``: torch returns ``self`` when it is already contiguous, and
    refuses ``preserve_format`` only when it would have to copy."""
    assert_same(
        """
        for t in (torch.ones(2), torch.tensor(1.0), torch.ones(2, 3), torch.zeros(0, 3).t(), torch.ones(3, 1).t(),
                  torch.ones(2, 3).t(), torch.ones(4)[::2], torch.ones(1, 2, 3, 4).contiguous(memory_format=torch.channels_last)):
            try:
                print(t.contiguous(memory_format=torch.preserve_format) is t)
            except RuntimeError as error:
                print("RuntimeError:", error)
        """
    )


def test_to_with_a_memory_format_aliases_only_when_torch_suggests_that_format():
    """``to(memory_format=f)`` is ``self`` when nothing else changes and ``f`` is preserve_format or
    the format torch reads off the strides (``suggest_memory_format``: a transposed matrix counts as
    row-major!); otherwise a copy laid out in ``f``, with ``ToCopyBackward0``."""
    assert_same(
        """
        x = torch.ones(2, 3)
        t = x.t()
        nchw = torch.ones(2, 3, 4, 5, requires_grad=True)
        nhwc = nchw.contiguous(memory_format=torch.channels_last)
        print(x.to(memory_format=torch.contiguous_format) is x, t.to(memory_format=torch.contiguous_format) is t)
        print(nhwc.to(memory_format=torch.channels_last) is nhwc, nhwc.to(memory_format=torch.preserve_format) is nhwc)
        print(nchw.to(memory_format=None) is nchw, torch.ones(3, 1, 1, 1).to(memory_format=torch.channels_last).stride())
        wide = t.to(torch.float64, memory_format=torch.contiguous_format)
        last = nchw.to(memory_format=torch.channels_last)
        back = nhwc.to(memory_format=torch.contiguous_format)
        last3d = torch.ones(1, 2, 3, 4, 5).to(torch.float64, memory_format=torch.channels_last_3d)
        copied = x.to("cpu", memory_format=torch.contiguous_format, copy=True)
        for program in ("x.to(memory_format=torch.channels_last)", "x.to(memory_format=3)"):
            try:
                eval(program)
            except (RuntimeError, TypeError) as error:
                print(type(error).__name__, error)
        """
    )
