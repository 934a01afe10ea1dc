export const accessTokensRoute = '/access-tokens';

export const toAccessTokens = (): string => accessTokensRoute;
