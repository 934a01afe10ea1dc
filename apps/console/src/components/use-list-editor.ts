import { useCallback, useState } from 'react';
import { useConfirmation } from './use-confirmation';

/**
 * The state of a list page whose items are added and edited in one dialog and deleted after a
 * confirmation (attendance statuses, password policies): `add` opens the dialog empty, `edit` with an
 * item, `confirmation.ask` asks about deleting one. The edited item stays set while the dialog closes,
 * so its form does not flip to create mode mid-fade.
 */
export function useListEditor<Item>() {
  const [dialogOpen, setDialogOpen] = useState(false);
  const [editing, setEditing] = useState<Item | null>(null);
  const confirmation = useConfirmation<Item>();

  const edit = useCallback((item: Item) => {
    setEditing(item);
    setDialogOpen(true);
  }, []);
  const add = useCallback(() => {
    setEditing(null);
    setDialogOpen(true);
  }, []);
  const closeDialog = useCallback(() => setDialogOpen(false), []);

  return { dialogOpen, editing, add, edit, closeDialog, confirmation };
}

export type ListEditor<Item> = ReturnType<typeof useListEditor<Item>>;
