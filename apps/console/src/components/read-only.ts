import { createContext, useContext } from 'react';

/**
 * A view the signed-in administrator may look at but not change (docs/adr/0011: the permission is
 * not held there). Inside it, add buttons and delete buttons hide, row actions that change something
 * are disabled with the reason, inline edits and switches are off. Outside any provider, all is
 * editable: the server still decides.
 */
export const ReadOnly = createContext(false);

export const useReadOnly = () => useContext(ReadOnly);
