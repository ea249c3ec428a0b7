import { useMe } from '../session';

/** A channel's name when the session names the account's channels, its id otherwise. */
export function useChannelName(): (id: string) => string {
  const channels = useMe().account.channels ?? [];
  return (id) => channels.find((channel) => channel.id === id)?.name ?? id;
}
