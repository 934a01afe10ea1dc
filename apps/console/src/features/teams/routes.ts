export const teamsRoute = '/teams';

export const toTeams = (): string => teamsRoute;
