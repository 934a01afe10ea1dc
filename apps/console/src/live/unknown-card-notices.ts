import type { TAttendanceLiveMessage } from '@rollcall/contracts';

export type UnknownCardMessage = Extract<TAttendanceLiveMessage, { kind: 'attendance.unknown_card' }>;

/** the latest few stay in view: a burst at a door should not push the screen's own content away */
export const KEPT_NOTICES = 3;

/**
 * The unknown-card notices of the whole console, not of one screen. They were a screen's own state:
 * moving from Arrivals / Departures to Presence dropped them, and a scan told while the next screen
 * was still loading (the router keeps the old screen in view until the new one is ready) reached only
 * the screen being left: the Presence board then missed the second scan of a card the first screen
 * had already shown. Held here, a notice stays on every live screen until it is dismissed.
 */
let notices: readonly UnknownCardMessage[] = [];
const listeners = new Set<() => void>();

const publish = (next: readonly UnknownCardMessage[]) => {
  notices = next;
  for (const listener of listeners) listener();
};

export const unknownCardNotices = {
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  current: (): readonly UnknownCardMessage[] => notices,
  /** the push's unknown cards, newest first; a card seen again moves to the top with its latest scan */
  add(messages: readonly TAttendanceLiveMessage[]): void {
    const unknown = messages.filter((message): message is UnknownCardMessage => message.kind === 'attendance.unknown_card').reverse();
    if (unknown.length === 0) return;
    const newest = unknown.filter((message, index) => unknown.findIndex((other) => other.card_uid === message.card_uid) === index);
    publish([...newest, ...notices.filter((notice) => !newest.some((card) => card.card_uid === notice.card_uid))].slice(0, KEPT_NOTICES));
  },
  dismiss(notice: UnknownCardMessage): void {
    publish(notices.filter((item) => item !== notice));
  },
  /** signing out forgets them */
  clear(): void {
    publish([]);
  },
};
