import { createContext, useContext } from 'react';

/** Spec: plain notice (dark), success (green), error (blue-grey). */
export type SnackbarVariant = 'notice' | 'success' | 'error';

export interface SnackbarApi {
  notify: (message: string, variant?: SnackbarVariant) => void;
}

export const SnackbarContext = createContext<SnackbarApi | null>(null);

export function useSnackbar(): SnackbarApi {
  const api = useContext(SnackbarContext);
  if (!api) throw new Error('useSnackbar needs a <SnackbarProvider>');
  return api;
}
