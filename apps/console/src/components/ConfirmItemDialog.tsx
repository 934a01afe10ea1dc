import { ConfirmDialog } from './ConfirmDialog';
import type { useConfirmation } from './use-confirmation';

interface ConfirmItemDialogProps<Item> {
  /** the item asked about (useConfirmation) */
  confirmation: Pick<ReturnType<typeof useConfirmation<Item>>, 'item' | 'open' | 'cancel'>;
  title: string;
  message: string;
  /** while the confirmed action runs */
  busy: boolean;
  /** the confirmed action on the item; its outcome goes through `confirmation.outcome` */
  onConfirm: (item: Item) => void;
}

/** The confirm dialog about one item of a list (delete this role?), wired to its useConfirmation. */
export function ConfirmItemDialog<Item>({ confirmation, title, message, busy, onConfirm }: ConfirmItemDialogProps<Item>) {
  return (
    <ConfirmDialog
      open={confirmation.open}
      title={title}
      message={message}
      busy={busy}
      onConfirm={() => {
        if (confirmation.item) onConfirm(confirmation.item);
      }}
      onCancel={confirmation.cancel}
    />
  );
}
