-- The name filter of customers/list (docs/customers.md, Search by name): case-insensitive prefix
-- searches per account. Expression indexes, which schema.prisma cannot state. Their expressions are
-- those of services/customers/name-search.ts, character for character, so the planner uses them.
CREATE INDEX "customers_account_id_full_name_prefix_idx" ON "customers" ("account_id", lower(coalesce("first_name", '') || ' ' || coalesce("last_name", '')) text_pattern_ops);

CREATE INDEX "customers_account_id_last_name_prefix_idx" ON "customers" ("account_id", lower("last_name") text_pattern_ops);

CREATE INDEX "customers_account_id_business_name_prefix_idx" ON "customers" ("account_id", lower("business_details" ->> 'name') text_pattern_ops);
