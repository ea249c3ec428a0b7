/** The part of Stripe.js (and of localstripe's stand-in for it) the portal uses. */
export interface StripeCardElement {
  mount(element: HTMLElement): void;
  destroy(): void;
}

export interface StripeJs {
  elements(): { create(type: 'card', options?: object): StripeCardElement };
  confirmCardSetup(
    clientSecret: string,
    data: { payment_method: { card: StripeCardElement; billing_details?: { name?: string } } },
  ): Promise<{ error?: { message?: string } | null; setupIntent?: { id: string; status: string } }>;
}

type StripeFactory = (publishableKey: string, options?: { locale?: string }) => StripeJs;

declare global {
  interface Window {
    Stripe?: StripeFactory;
  }
}

const loading = new Map<string, Promise<StripeFactory>>();

/**
 * Stripe.js from the address the platform names (`payment_provider.js_url`, the one origin
 * besides its own that the portal's content security policy lets scripts come from), added as a
 * <script> only when a page needs a card form from Stripe, once per page load.
 */
export function loadStripe(url: string): Promise<StripeFactory> {
  let promise = loading.get(url);
  if (!promise) {
    promise = new Promise<StripeFactory>((resolve, reject) => {
      if (window.Stripe) return resolve(window.Stripe);
      const script = document.createElement('script');
      script.src = url;
      script.async = true;
      script.onload = () => (window.Stripe ? resolve(window.Stripe) : reject(new Error(`${url} did not define Stripe`)));
      script.onerror = () => reject(new Error(`${url} could not be loaded`));
      document.head.appendChild(script);
    });
    promise.catch(() => loading.delete(url));
    loading.set(url, promise);
  }
  return promise;
}
