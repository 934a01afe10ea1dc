export const statisticsRoute = '/statistics';

export const toStatistics = (): string => statisticsRoute;
