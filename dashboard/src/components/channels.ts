import { useMe } from '../session';

/** A channel's name from the session's list of the account's channels; its id for one made since the page loaded. */
export function useChannelName(): (id: string) => string {
  const channels = useMe().account.channels;
  return (id) => channels.find((channel) => channel.id === id)?.name ?? id;
}
