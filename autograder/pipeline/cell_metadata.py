"""nbgrader's ``CheckCellMetadata``, with its JSON schema checked once per process, not once per cell.

nbgrader's step validates each cell's ``nbgrader`` metadata with
``jsonschema.validate(metadata, schema)``, which checks the *schema* against
the metaschema every time before it checks the metadata, for every cell,
twice per submission (the step is in both of ``Autograde``'s pipelines; what
that costs: docs/decisions/0015).  This one builds the schema's validator once
and checks each cell with it: the same errors (``best_match`` of the
same validator's errors, as ``jsonschema.validate`` raises), and nbgrader's own
``validate_cell`` for a cell whose schema version is not the current one (it
raises ``SchemaTooOldError`` / ``SchemaTooNewError``).
"""

import functools
import json
import traceback

import jsonschema
from jsonschema.exceptions import best_match
from nbgrader.nbgraderformat import MetadataValidator, ValidationError
from nbgrader.preprocessors import CheckCellMetadata as NbgraderCheckCellMetadata


@functools.lru_cache(maxsize=None)
def _validator(schema_text):
    schema = json.loads(schema_text)
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)


class SchemaOnceValidator(MetadataValidator):
    """nbgrader's MetadataValidator whose schema is checked once (see the module docstring)."""

    def validate_cell(self, cell):
        if "nbgrader" not in cell.metadata:
            return
        metadata = cell.metadata["nbgrader"]
        if metadata.get("schema_version", 0) != self.schema_version:
            return super().validate_cell(cell)   # nbgrader's error for an old or new schema
        error = best_match(self._schema_validator.iter_errors(metadata))
        if error is not None:
            raise error

    @functools.cached_property
    def _schema_validator(self):
        """The schema's validator, found once per notebook (its key, the schema as text, costs
        about as much as checking a cell)."""
        return _validator(json.dumps(self.schema, sort_keys=True))


class CheckCellMetadata(NbgraderCheckCellMetadata):
    """nbgrader's CheckCellMetadata step (same checks, same log and error), with :class:`SchemaOnceValidator`."""

    def preprocess(self, nb, resources):
        try:
            SchemaOnceValidator().validate_nb(nb)
        except ValidationError:
            self.log.error(traceback.format_exc())
            msg = "Notebook failed to validate; the nbgrader metadata may be corrupted."
            self.log.error(msg)
            raise ValidationError(msg)
        return nb, resources
