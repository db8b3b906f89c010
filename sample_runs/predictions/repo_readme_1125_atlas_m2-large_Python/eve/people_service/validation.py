"""Custom validator.

The service contract allows ``PUT /people/{id}`` with *any subset* of the
updatable fields.  Stock Eve treats PUT as a full replacement (so omitted
required fields would be rejected).  Here the stored values of fields that the
client omitted are carried over before validation, so a partial PUT updates
only the given fields while a full PUT behaves exactly like a replacement.
"""
from eve.io.mongo import Validator


class PeopleValidator(Validator):
    def validate_replace(self, document, document_id, persisted_document=None):
        if persisted_document and isinstance(document, dict):
            merged = {
                field: persisted_document[field]
                for field in self.schema.keys()
                if field in persisted_document and field not in document
            }
            merged.update(document)
            document = merged
        return super().validate_replace(document, document_id, persisted_document)
