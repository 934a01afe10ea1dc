import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { describeError } from '../api/api-error';
import { useSnackbar } from './snackbar/snackbar-context';

/**
 * The state of a confirm dialog about one item (delete this role? leave that organization?) and the
 * outcome of the confirmed call: the dialog closes, then the success notice (and any refresh) or the
 * error notice. The item stays set while the dialog fades out, so its texts do not change mid-fade.
 */
export function useConfirmation<Item>() {
  const { t } = useTranslation();
  const { notify } = useSnackbar();
  const [item, setItem] = useState<Item | null>(null);
  const [open, setOpen] = useState(false);

  const ask = useCallback((next: Item) => {
    setItem(next);
    setOpen(true);
  }, []);
  const cancel = useCallback(() => setOpen(false), []);

  /** callbacks for the confirmed mutation; `success` gives the notice (null: none) */
  const outcome = <Output>(success: (output: Output) => string | null, after?: () => void) => ({
    onSuccess: (output: Output) => {
      setOpen(false);
      const message = success(output);
      if (message) notify(message, 'success');
      after?.();
    },
    onError: (error: unknown) => {
      setOpen(false);
      notify(describeError(error, t), 'error');
    },
  });

  return { item, open, ask, cancel, outcome };
}
