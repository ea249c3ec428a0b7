import { enumLabel } from './enumLabel';

/** An enum value in words, its code (what the API and its documentation say) as the tooltip. */
export function EnumText({ code }: { code: string }) {
  return <span title={code}>{enumLabel(code)}</span>;
}
