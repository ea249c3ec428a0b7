import { subscriptionWorkflowId } from '../../../domain/workflow-ids';

/** Read from the page: the API fills these meta tags from its own configuration when serving index.html. */
function meta(name: string): string | undefined {
  return document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content || undefined;
}

/** The subscription's lifecycle workflow in the Temporal UI, or undefined when no UI is configured. */
export function subscriptionWorkflowLink(subscriptionId: string): string | undefined {
  const ui = meta('temporal-ui');
  if (!ui) return undefined;
  const namespace = meta('temporal-namespace') ?? 'default';
  return `${ui.replace(/\/$/, '')}/namespaces/${encodeURIComponent(namespace)}/workflows/${encodeURIComponent(subscriptionWorkflowId(subscriptionId))}`;
}
