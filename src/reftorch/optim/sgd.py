"""SGD: ``param -= lr * param.grad``, in place, under ``no_grad``.

The update writes into each parameter's storage. Every tensor sharing that
storage sees the new numbers, including the tensors of a ``state_dict()``
saved earlier.
"""

from ..autograd.grad_mode import no_grad


class SGD:
    def __init__(self, params, lr=1e-3, momentum=0, weight_decay=0):
        self.params = list(params)
        self.lr, self.momentum, self.weight_decay = lr, momentum, weight_decay
        self._velocity = {}

    @no_grad()
    def step(self):
        for p in self.params:
            if p.grad is None:
                continue
            update = p.grad
            if self.weight_decay:
                update = update + self.weight_decay * p
            if self.momentum:
                v = self._velocity.get(id(p))
                v = update.clone() if v is None else v.mul_(self.momentum).add_(update)
                self._velocity[id(p)] = v
                update = v
            p.add_(update, alpha=-self.lr)

    def zero_grad(self, set_to_none=True):
        for p in self.params:
            if set_to_none:
                p.grad = None
            elif p.grad is not None:
                p.grad.zero_()
