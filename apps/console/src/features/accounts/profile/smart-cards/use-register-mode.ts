import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TAttendanceLiveMessage } from '@rollcall/contracts';
import { describeError } from '../../../../api/api-error';
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
}

const CLOSED: RegisterModeState = { open: false, readers: [], expiresAt: null, error: null };

type RegisterModeMessage = Extract<TAttendanceLiveMessage, { kind: 'scanner.register_mode' }>;

/**
 * 'Add Smartcard': arms register mode for the account (`POST scanner/mode/register/{account}`) and
 * follows `live.attendance`: the card registered at an enrollment reader closes the dialog with a
 * notice and refreshes the list; the mode ending otherwise (time up, reader deleted) closes it once
 * every armed reader has ended. Cancel ends the mode (`POST scanner/cancel`).
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
    start.mutate(
      { account_id: accountId },
      {
        onSuccess: (armed) => {
          if (session.current !== mine) {
            // cancelled while the arming was on its way: end what it armed
            stop.mutate();
            return;
          }
          setState({ open: true, readers: armed.readers, expiresAt: armed.expires_at, error: null });
        },
        onError: (error) => {
          if (session.current === mine) setState({ ...CLOSED, open: true, error: describeError(error, t) });
        },
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
      notify(message.reason === 'expired' ? t('smartCards.expired') : t('smartCards.ended'), 'notice');
    }
  };

  useLive(trpc.live.attendance, {
    enabled: grants.may('attendance:read'),
    // after a reconnect a registration may have been missed
    onReconnect: refreshList,
    onMessages: (messages) => {
      for (const message of messages) if (message.kind === 'scanner.register_mode' && message.state === 'ended' && message.account_id === accountId) onEnded(message);
    },
  });

  // leaving the tab with the dialog open ends the mode this administrator started
  const cancelOnLeave = useRef(() => {});
  useEffect(() => {
    cancelOnLeave.current = () => {
      if (stateRef.current.open && stateRef.current.expiresAt) stop.mutate();
    };
  });
  useEffect(() => () => cancelOnLeave.current(), []);

  return { state, open, cancel };
}
