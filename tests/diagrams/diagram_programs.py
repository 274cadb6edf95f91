"""Programs the diagram tests draw: every step_through of the course, and some harder ones.

The course's are read from the notebooks themselves (the list literal passed
to ``step_through``), so the tests follow the chapters when they change.
"""

import ast
import copy
import json
import pathlib

COURSE = pathlib.Path(__file__).resolve().parents[2] / "course"


def course_programs():
    """``{"08_clone.ipynb:1": (statements, namespace)}`` for every step_through call in the course."""
    found = {}
    for path in sorted(COURSE.glob("*.ipynb")):
        cells = json.loads(path.read_text())["cells"]
        count = 0
        for cell in cells:
            source = "".join(cell["source"])
            if cell["cell_type"] != "code" or "step_through(" not in source:
                continue
            if source.startswith("%%"):  # a cell magic (%%answer, %%key): its body is the program
                source = source.split("\n", 1)[1] if "\n" in source else ""
            for node in ast.walk(ast.parse(source)):
                if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "step_through":
                    count += 1
                    namespace = {"copy": copy} if any(k.arg == "namespace" for k in node.keywords) else None
                    library = next((k.value.id for k in node.keywords if k.arg == "torch"), "torch")
                    found[f"{path.name}:{count}"] = (ast.literal_eval(node.args[0]), namespace, library)
    return found


HARD = {
    "long_names": ["a_rather_long_variable_name = torch.arange(6.0).reshape(2, 3)",
                   "another_long_name_for_it = a_rather_long_variable_name",
                   "third = another_long_name_for_it.t()",
                   "x, y, z, w = third, third, third, third"],
    "many_dims": ["a = torch.zeros(2, 1, 3, 1, 2)", "b = a.permute(4, 3, 2, 1, 0)",
                  "c = b.expand(2, 5, 3, 1, 2)"],
    "big_storage": ["a = torch.arange(120.0)", "v = a[::7]", "w = a.view(10, 12)[3:, 5:9]",
                    "with torch.no_grad():\n    w.mul_(-1.5)"],
    "wide_values": ["a = torch.tensor([123456789, -7, 0, 42])", "b = a * 1000", "c = a.to(torch.float64) / 3"],
    "bools": ["a = torch.tensor([True, False, True])", "b = a[1:]"],
    "model": ["lin = torch.nn.Linear(3, 2)", "sd = lin.state_dict()", "w = lin.weight.detach().clone()",
              "loss = lin(torch.ones(1, 3)).sum()", "loss.backward()"],
    "grads_twice": ["a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)", "b = a * a",
                    "b.retain_grad()", "y = b.sum()", "y.backward(retain_graph=True)", "y.backward()",
                    "g = a.grad", "a.grad = None"],
    "deep_graph": ["a = torch.ones(2, requires_grad=True)", "b = a * 2", "c = b + a", "d = c * b",
                   "e = d.sum() + c.sum()", "e.backward()"],
}
