"""schemathesis hooks for `npm run test:schemathesis` (docs/testing.md, "API contract checks")."""
import json
import os
import random
import re
import threading
import uuid

import schemathesis

# Refusals of schema-valid requests that no JSON Schema can state, each as (field path pattern,
# exact message). A failure is dropped only when every complaint of the response is one of them.
UNSTATABLE = [
    # State, like an unknown id: a page token is valid only if the server issued it for this list.
    (r"pagination\.next_page_token", "Not a token issued for this list and these filters."),
    # The clock: an antifraud item expires in the future; a card expires at most 20 years ahead; a
    # subscription starts after now.
    (r"expired_at", "Must be in the future."),
    (r"card\.exp_year", "At most 20 years ahead."),
    (r"starts_at", "Must be after now."),
    # A tax registration cannot have been validated later than now (services/customers/rules.ts).
    (r"tax\.registrations\[\d+\]\.validation\.validated_at", "Cannot be in the future."),
    # Comparisons between values of one request.
    (r"date_to", "Must be later than date_from."),
    # usage/summary's window (date-times compared to the microsecond).
    (r"to", "Must be later than `from`."),
    # The metrics operations' period: later than `from`, at most a year after it.
    (r"period\.to", "Must be later than `from`."),
    (r"period\.to", re.compile(r"At most \d+ days after `from`\.")),
    # Every date RANGE filter (monthly-statements' period, settlements' settlement_date).
    (r"filters\.\w+\.value\.to", "`from` must not be after `to`."),
    (r"trial\.end_at", "Must be after the start."),
    (r"ends_at", re.compile(r"Must be after the (start|trial)\.")),
    (r"route_tree\.rules\[\d+\]\.match\.amount\.max", "`min` must be below `max`; `max` is exclusive."),
    (r"route_tree\.rules\[\d+\]\.name", re.compile(r"Rule name .* is used twice\.")),
    # A sum over the lines: each line's amount and quantity fit their bounds, the invoice's total may
    # still pass the 32-bit limit of amounts.
    (r"line_items", "An invoice's subtotal and total are at most 2147483647 minor units."),
    # uniqueItems compares whole items; the server compares (scheme, country, id), id in capitals.
    (r"tax\.registrations", "Each registration (scheme, country, id) may appear once."),
    (
        r"settings\.dunning_retry_schedule_days",
        "At most 20 strictly increasing day offsets, each above 0; fractions of a day allowed.",
    ),
    # Decimal places of the number as written: `multipleOf: 0.0001` states it, but JSON Schema
    # computes it on binary floats (3 * 0.0001 is 0.00030000000000000003).
    (r"(.*\.tax\.rate|calculation_value)", "At most four decimal places."),
    # The order of a usage price's tiers (api/product-prices/usage-model.ts): only the last is
    # open-ended, and each ends above the one before; JSON Schema has no rule across items.
    (
        r"usage_model\.tiers\[\d+\]\.up_to",
        re.compile(r"The last tier is open-ended: its up_to is null\.|Only the last tier is open-ended \(up_to null\)\.|.*greater than the previous tier.*"),
    ),
    # A checksum over the digits, which a pattern cannot carry.
    (r"card\.number", "Not a valid card number (Luhn check failed); check for a mistyped digit."),
]

# Refusals that depend on the stored record the request names, as (operation path pattern, field
# path pattern, exact message): they are met only once a request names a real record (FIXTURES).
RECORD_STATE = [
    # The type of a customer never changes; customers/create states the rule with oneOf on `type`.
    (r"/v2/customers/(update|patch)", r"business_details", "Only BUSINESS customers have business details."),
    # Left out, collection_method follows the customer's default instrument; named, the document
    # states the rule (api/subscriptions/schemas.ts).
    (
        r"/v2/subscriptions/create",
        r"settings\.days_until_due",
        "Only a subscription billed by invoice (collection_method SEND_INVOICE) has a payment term.",
    ),
]


def _unstatable(operation, path, message):
    for pattern, field, text in RECORD_STATE:
        if re.fullmatch(pattern, operation) and re.fullmatch(field, path) and text == message:
            return True
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
    operation = case.operation.path
    return not (refused and all(_unstatable(operation, path, message or "") for path, message in refused))


# api/idempotency/with-idempotency.ts, IDEMPOTENCY_KEY.
IDEMPOTENCY_KEY = re.compile(r"[\x21-\x7e]{1,255}")


@schemathesis.hook
def before_call(context, case, **kwargs):
    """Make every well-formed Idempotency-Key unique to its request, and name existing records.

    schemathesis draws the same few keys ("0", an example) for thousands of requests; a key reused
    with another body is answered 422 IDEMPOTENCY_KEY_REUSED (docs/idempotency.md), which is the
    server keeping its promise, not a refusal of the data. Only positive cases: editing a case makes
    schemathesis validate it again, which would turn a negative one (say, without Authorization)
    positive and send what it had left out.
    """
    if case.meta is None or case.meta.generation.mode.is_negative:
        return
    key = (case.headers or {}).get("Idempotency-Key")
    if isinstance(key, str) and IDEMPOTENCY_KEY.fullmatch(key):
        case.headers["Idempotency-Key"] = f"{key[:200]}.{uuid.uuid4().hex}"
    if isinstance(case.body, dict):
        _use_fixtures(case)


# Records scripts/schemathesis/fixtures.ts created before the run, as {byPrefix, byOperation}.
FIXTURES = json.loads(os.environ.get("SCHEMATHESIS_FIXTURES") or '{"byPrefix": {}, "byOperation": {}}')
# A share of ids stays as drawn, so the 404 of an unknown id is still checked.
FIXTURE_SHARE = 0.8
# Operations whose success uses the record up: a deleted draft, a revoked instrument.
USING_UP = {
    "antifraud-lists/delete-item",
    "credit-notes/void",
    "invoices/delete",
    "invoices/finalize",
    "invoices/pay",
    "invoices/void",
    "payment-instruments/revoke",
    "subscriptions/cancel",
    "webhooks/delete",
}
# Not the `random` module: hypothesis seeds it anew for every case it draws, which made the same
# cases keep their drawn ids run after run.
_random = random.Random()
_spent = set()
_lent = {}
_lock = threading.Lock()


def _fixture_for(operation, field, value):
    pool = FIXTURES["byOperation"].get(operation, {}).get(field)
    if pool is None and isinstance(value, str) and (field == "id" or field.endswith("_id")):
        pool = next((ids for prefix, ids in FIXTURES["byPrefix"].items() if value.startswith(prefix)), None)
    with _lock:
        unspent = [id for id in pool or [] if id not in _spent]
    return _random.choice(unspent) if unspent and _random.random() < FIXTURE_SHARE else None


def _use_fixtures(case):
    """Put the ids of existing records into a positive request, so it gets past 404 to its body's checks."""
    operation = case.operation.path.removeprefix("/v2/")
    used = []
    for field, value in list(case.body.items()):
        if isinstance(value, list) and all(isinstance(item, dict) for item in value):
            for item in value:
                for inner, inner_value in list(item.items()):
                    fixture = _fixture_for(operation, f"{field}[].{inner}", inner_value)
                    if fixture is not None:
                        item[inner] = fixture
            continue
        fixture = _fixture_for(operation, field, value)
        if fixture is not None:
            case.body[field] = fixture
            used.append(fixture)
    if operation in USING_UP and used:
        with _lock:
            _lent[case.id] = used


@schemathesis.hook
def after_call(context, case, response):
    with _lock:
        used = _lent.pop(case.id, [])
        if 200 <= response.status_code < 300:
            _spent.update(used)
