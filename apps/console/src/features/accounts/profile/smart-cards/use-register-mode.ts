import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TAttendanceLiveMessage } from '@rollcall/contracts';
import { describeError } from '../../../../api/api-error';
import { authStore } from '../../../../api/auth-store';
import { useGrants } from '../../../../auth/use-grants';
import { useSnackbar } from '../../../../components/snackbar/snackbar-context';
import { useLive } from '../../../../live/use-live';
import { trpc } from '../../../../trpc';

export interface RegisterModeState {
  open: boolean;
  /** the enrollment readers armed for the account, once the server answered */
  readers: string[];
  expiresAt: string | null;
  /** the refusal (409: no enrollment reader free), shown in the dialog */
  error: string | null;
  /** the last card scanned while armed that another account holds: nothing was added, the mode waits on */
  taken: { cardUid: string } | null;
}

const CLOSED: RegisterModeState = { open: false, readers: [], expiresAt: null, error: null, taken: null };

type RegisterModeMessage = Extract<TAttendanceLiveMessage, { kind: 'scanner.register_mode' }>;

/**
 * Ends this administrator's register modes as the page goes away (reload, closed tab, another site):
 * React's unmount does not run then, and the desk would give the next card to the account left
 * behind. `keepalive` lets the request outlive the page; the session cookie (or the token held in
 * memory) authenticates it, as `POST scanner/cancel` of REST v2.
 */
function cancelAsPageLeaves(): void {
  const token = authStore.getToken();
  void fetch('/api/v2/scanner/cancel', { method: 'POST', keepalive: true, credentials: 'same-origin', headers: token ? { authorization: `Bearer ${token}` } : {} }).catch(() => undefined);
}

/**
 * 'Add Smartcard': arms register mode for the account (`POST scanner/mode/register/{account}`) and
 * follows `live.attendance`: the card registered at an enrollment reader closes the dialog with a
 * notice and refreshes the list; the mode ending otherwise (time up, reader deleted) closes it once
 * every armed reader has ended. Cancel ends the mode (`POST scanner/cancel`), and so does leaving the
 * tab or the page. A card another account holds is refused by the server, which tells the dialog
 * (`scanner.card_taken`): it says whose card it is and keeps waiting for the right one.
 *
 * The subscription lives as long as the tab, not the dialog, so it is already listening when the
 * first card is scanned.
 */
export function useRegisterMode(accountId: string) {
  const { t } = useTranslation();
  const { notify } = useSnackbar();
  const utils = trpc.useUtils();
  const grants = useGrants();
  const [state, setState] = useState<RegisterModeState>(CLOSED);
  const start = trpc.smartCards.startRegisterMode.useMutation();
  const stop = trpc.smartCards.cancelRegisterMode.useMutation();

  // the live handler reads the latest state; each opening is a session, so a late answer to an
  // arming the administrator already cancelled does not reopen the dialog
  const stateRef = useRef(state);
  useEffect(() => {
    stateRef.current = state;
  });
  const session = useRef(0);
  const endedReaders = useRef(new Set<string>());
  const arming = useRef<Promise<unknown> | null>(null);

  const refreshList = useCallback(() => void utils.smartCards.ofAccount.invalidate({ account_id: accountId }), [utils, accountId]);

  const close = () => {
    session.current += 1;
    setState(CLOSED);
  };

  const open = () => {
    session.current += 1;
    const mine = session.current;
    endedReaders.current = new Set();
    setState({ ...CLOSED, open: true });
    const armed = start.mutateAsync({ account_id: accountId });
    arming.current = armed;
    armed.then(
      (answer) => {
        if (session.current !== mine) {
          // cancelled (or left) while the arming was on its way: end what it armed
          stop.mutate();
          return;
        }
        setState({ open: true, readers: answer.readers, expiresAt: answer.expires_at, error: null, taken: null });
      },
      (error: unknown) => {
        if (session.current === mine) setState({ ...CLOSED, open: true, error: describeError(error, t) });
      },
    );
  };

  const cancel = () => {
    const armed = stateRef.current.expiresAt !== null || start.isPending;
    close();
    if (armed) stop.mutate(undefined, { onError: (error) => notify(describeError(error, t), 'error') });
  };

  const onEnded = (message: RegisterModeMessage) => {
    refreshList();
    const current = stateRef.current;
    if (!current.open) return;
    if (message.reason === 'card_registered' || message.reason === 'card_already_registered') {
      close();
      notify(t(message.reason === 'card_registered' ? 'smartCards.added' : 'smartCards.alreadyAdded', { uid: message.card_uid ?? '' }), message.reason === 'card_registered' ? 'success' : 'notice');
      return;
    }
    endedReaders.current.add(message.reader_id);
    if (current.expiresAt && current.readers.every((reader) => endedReaders.current.has(reader))) {
      close();
      // 'no card in time' would be false after a card someone else holds was scanned
      const ended = current.taken ? t('smartCards.endedAfterTaken', { uid: current.taken.cardUid }) : message.reason === 'expired' ? t('smartCards.expired') : t('smartCards.ended');
      notify(ended, 'notice');
    }
  };

  const onTaken = (cardUid: string) => {
    if (!stateRef.current.open) return;
    setState((current) => (current.open ? { ...current, taken: { cardUid } } : current));
  };

  useLive(trpc.live.attendance, {
    enabled: grants.may('attendance:read'),
    // after a reconnect a registration may have been missed
    onReconnect: refreshList,
    onMessages: (messages) => {
      for (const message of messages) {
        if (message.kind === 'scanner.register_mode' && message.state === 'ended' && message.account_id === accountId) onEnded(message);
        else if (message.kind === 'scanner.card_taken' && message.account_id === accountId) onTaken(message.card_uid);
      }
    },
  });

  // leaving the tab with the dialog open ends the mode this administrator started
  // (a plain request: a mutation of an unmounted component may not run its callbacks); an arming
  // still on its way is ended once it has answered
  const cancelOnLeave = useRef(() => {});
  useEffect(() => {
    cancelOnLeave.current = () => {
      if (!stateRef.current.open) return;
      session.current += 1;
      if (stateRef.current.expiresAt) cancelAsPageLeaves();
      else void arming.current?.then(cancelAsPageLeaves, () => undefined);
    };
  });
  useEffect(() => () => cancelOnLeave.current(), []);
  const armedNow = state.open && state.expiresAt !== null;
  useEffect(() => {
    if (!armedNow) return;
    window.addEventListener('pagehide', cancelAsPageLeaves);
    return () => window.removeEventListener('pagehide', cancelAsPageLeaves);
  }, [armedNow]);

  return { state, open, cancel };
}
