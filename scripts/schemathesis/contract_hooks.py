"""schemathesis hooks for `npm run test:schemathesis` (docs/testing.md, "API contract checks")."""
import json
import re
import uuid

import schemathesis

# Refusals of schema-valid requests that no JSON Schema can state, each as (field path pattern,
# exact message). A failure is dropped only when every complaint of the response is one of them.
UNSTATABLE = [
    # State, like an unknown id: a page token is valid only if the server issued it for this list.
    (r"pagination\.next_page_token", "Not a token issued for this list and these filters."),
    # The clock: an antifraud item expires in the future; a card expires at most 20 years ahead.
    (r"expired_at", "Must be in the future."),
    (r"card\.exp_year", "At most 20 years ahead."),
    # Comparisons between values of one request.
    (r"date_to", "Must be later than date_from."),
    (r"date_to", "A report covers at most 366 days."),
    (r"filters\.period\.value\.to", "`from` must not be after `to`."),
    (r"route_tree\.rules\[\d+\]\.match\.amount\.max", "`min` must be below `max`; `max` is exclusive."),
    (r"route_tree\.rules\[\d+\]\.name", re.compile(r"Rule name .* is used twice\.")),
    # uniqueItems compares whole items; the server compares (scheme, country, id), id in capitals.
    (r"tax\.registrations", "Each registration (scheme, country, id) may appear once."),
    (
        r"settings\.dunning_retry_schedule_days",
        "At most 20 strictly increasing day offsets, each above 0; fractions of a day allowed.",
    ),
    # Decimal places of the number as written: `multipleOf: 0.0001` states it, but JSON Schema
    # computes it on binary floats (3 * 0.0001 is 0.00030000000000000003).
    (r"(.*\.tax\.rate|calculation_value)", "At most four decimal places."),
    # A checksum over the digits, which a pattern cannot carry.
    (r"card\.number", "Not a valid card number (Luhn check failed); check for a mistyped digit."),
]


def _unstatable(path, message):
    for field, text in UNSTATABLE:
        if re.fullmatch(field, path) and (text.fullmatch(message) if isinstance(text, re.Pattern) else text == message):
            return True
    return False


@schemathesis.hook
def filter_failure(context, failure, case, response):
    if response is None or response.status_code != 400:
        return True
    try:
        constraints = json.loads(response.content)["context"]["constraints"]
    except (ValueError, KeyError, TypeError):
        return True
    refused = [(path, entry.get("message")) for path, entry in constraints.items()]
    return not (refused and all(_unstatable(path, message or "") for path, message in refused))


# api/idempotency/with-idempotency.ts, IDEMPOTENCY_KEY.
IDEMPOTENCY_KEY = re.compile(r"[\x21-\x7e]{1,255}")


@schemathesis.hook
def before_call(context, case, **kwargs):
    """Make every well-formed Idempotency-Key unique to its request.

    schemathesis draws the same few keys ("0", an example) for thousands of requests; a key reused
    with another body is answered 422 IDEMPOTENCY_KEY_REUSED (docs/idempotency.md), which is the
    server keeping its promise, not a refusal of the data. Only positive cases: editing a case makes
    schemathesis validate it again, which would turn a negative one (say, without Authorization)
    positive and send what it had left out.
    """
    if case.meta is None or case.meta.generation.mode.is_negative or not case.headers:
        return
    key = case.headers.get("Idempotency-Key")
    if isinstance(key, str) and IDEMPOTENCY_KEY.fullmatch(key):
        case.headers["Idempotency-Key"] = f"{key[:200]}.{uuid.uuid4().hex}"
