/** What REST and tRPC answer alike for readers (shaped once, here). */

export const readerDeletedMessage = (name: string) => `Reader "${name}" deleted`;

export const readerTokenRevokedMessage = 'Reader token revoked';
