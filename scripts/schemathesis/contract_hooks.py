"""schemathesis hooks for `npm run test:schemathesis` (docs/testing.md, "API contract checks")."""
import json

import schemathesis

# Refusals of schema-valid requests that no JSON Schema can state, each by field and message:
# a page token is valid only if the server issued it for this list and these filters (state,
# like an id); an antifraud item's expiry must be after the moment of the request (the clock);
# a report's period and a routing rule's amount range compare two fields of the request.
UNSTATABLE = {
    ("pagination.next_page_token", "Not a token issued for this list and these filters."),
    ("expired_at", "Must be in the future."),
    ("date_to", "Must be later than date_from."),
    ("date_to", "A report covers at most 366 days."),
    # A checksum over the digits, which a pattern cannot carry.
    ("card.number", "Not a valid card number (Luhn check failed); check for a mistyped digit."),
}
UNSTATABLE_SUFFIXES = {
    (".match.amount.max", "`min` must be below `max`; `max` is exclusive."),
}


def _unstatable(path, message):
    if (path, message) in UNSTATABLE:
        return True
    return any(path.endswith(suffix) and message == text for suffix, text in UNSTATABLE_SUFFIXES)


@schemathesis.hook
def filter_failure(context, failure, case, response):
    if response is None or response.status_code != 400:
        return True
    try:
        constraints = json.loads(response.content)["context"]["constraints"]
    except (ValueError, KeyError, TypeError):
        return True
    refused = [(path, entry.get("message")) for path, entry in constraints.items()]
    return not (refused and all(_unstatable(path, message) for path, message in refused))
