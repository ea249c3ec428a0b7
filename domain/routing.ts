import type { CardBrand } from './cards';

/**
 * Route trees (docs/routing.md): the first rule whose `match` fits a payment picks the ordered
 * list of providers the charge cascades through; no matching rule means `default_providers`.
 * Stored as JSON exactly as the API accepts it, hence the snake_case.
 */
export interface RouteMatch {
  currencies?: string[];
  /** Minor units: `min` inclusive, `max` exclusive, so adjacent rules can share a bound. */
  amount?: { min?: number; max?: number };
  card_brands?: CardBrand[];
  /** ISO 3166 alpha-3 of the customer's address; a customer without one never matches. */
  customer_countries?: string[];
}

export interface RouteRule {
  name: string;
  match: RouteMatch;
  providers: string[];
}

export interface RouteTree {
  rules: RouteRule[];
  /** May be empty: payments no rule matches are then declined with `route_not_found`. */
  default_providers: string[];
}

/** What routing looks at in a payment. */
export interface PaymentFacts {
  currency: string;
  amount: number;
  cardBrand: string;
  customerCountry?: string;
}

export interface Route {
  /** The rule that matched; absent when the default providers apply. */
  rule?: string;
  providers: string[];
}

/** The route of an account with no published configuration for the payment's channel or account-wide. */
export const DEFAULT_PROVIDERS: readonly string[] = ['sandbox-alpha', 'sandbox-beta'];

/** The default route of an account connected to Stripe (docs/payments-stripe.md, "Routing"). */
export const STRIPE_DEFAULT_PROVIDERS: readonly string[] = ['stripe'];

export function matches(match: RouteMatch, facts: PaymentFacts): boolean {
  if (match.currencies && !match.currencies.includes(facts.currency)) return false;
  if (match.amount?.min !== undefined && facts.amount < match.amount.min) return false;
  if (match.amount?.max !== undefined && facts.amount >= match.amount.max) return false;
  if (match.card_brands && !(match.card_brands as readonly string[]).includes(facts.cardBrand)) return false;
  if (match.customer_countries) {
    if (!facts.customerCountry || !match.customer_countries.includes(facts.customerCountry)) return false;
  }
  return true;
}

export function selectRoute(tree: RouteTree, facts: PaymentFacts): Route {
  const rule = tree.rules.find((r) => matches(r.match, facts));
  return rule ? { rule: rule.name, providers: rule.providers } : { providers: tree.default_providers };
}
