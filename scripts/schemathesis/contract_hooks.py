"""schemathesis hooks for `npm run test:schemathesis` (docs/testing.md, "API contract checks")."""
import schemathesis


@schemathesis.hook
def filter_body(context, body):
    # A page token is an opaque value the server issued for one list and its filters, like an
    # id it created; the document can state its alphabet but not which tokens exist. Generated
    # strings are never issued tokens, so such cases are left out; a token of the wrong type (a
    # negative case) is still sent.
    pagination = body.get("pagination") if isinstance(body, dict) else None
    token = pagination.get("next_page_token") if isinstance(pagination, dict) else None
    return not (isinstance(token, str) and token != "")
