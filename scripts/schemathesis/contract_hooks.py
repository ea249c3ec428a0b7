"""schemathesis hooks for `npm run test:schemathesis` (docs/testing.md, "API contract checks")."""
import json

import schemathesis

# Refusals of schema-valid requests that no JSON Schema can state, each by field and message:
# a page token is valid only if the server issued it for this list and these filters (state,
# like an id); an antifraud item's expiry must be after the moment of the request (the clock);
# a report's date_to must be after its date_from (a comparison of two fields).
UNSTATABLE = {
    ("pagination.next_page_token", "Not a token issued for this list and these filters."),
    ("expired_at", "Must be in the future."),
    ("date_to", "Must be later than date_from."),
}


@schemathesis.hook
def filter_failure(context, failure, case, response):
    if response is None or response.status_code != 400:
        return True
    try:
        constraints = json.loads(response.content)["context"]["constraints"]
    except (ValueError, KeyError, TypeError):
        return True
    refused = {(path, entry.get("message")) for path, entry in constraints.items()}
    return not (refused and refused <= UNSTATABLE)
