export const readersRoute = '/readers';

export const toReaders = (): string => readersRoute;
